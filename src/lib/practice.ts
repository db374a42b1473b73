/**
 * The practice's facts (address, phone, fax, email, opening hours), defined
 * once in src/content/practice.json and checked here, so a typo fails the
 * build instead of reaching a patient.
 */
import { z } from './zod';
import raw from '../content/practice.json' with { type: 'json' };

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:mm');

export const practiceSchema = z.object({
  /** Display name per language. */
  name: z.object({ de: z.string().min(1), en: z.string().min(1) }),
  /** The responsible physician, as shown in the legal notice. */
  doctor: z.string().min(1),
  street: z.string().min(1),
  postalCode: z.string().regex(/^\d{5}$/),
  city: z.string().min(1),
  /** ISO 3166-1 alpha-2 */
  country: z.string().length(2),
  /** As shown, e.g. "0211 123 456 0"; the tel: link is derived from it. */
  phone: z.string().min(5),
  fax: z.string().min(5),
  email: z.email(),
  /** Weekdays 0 = Sunday .. 6 = Saturday. */
  openingHours: z.array(z.object({ days: z.array(z.number().int().min(0).max(6)).min(1), opens: time, closes: time })).min(1),
});

export type Practice = z.infer<typeof practiceSchema>;

export const practice: Practice = practiceSchema.parse(raw);

/** tel: URI in international form (+49…) for a German number as displayed. */
export function telHref(display: string): string {
  const digits = display.replace(/[^\d+]/g, '');
  return `tel:${digits.startsWith('+') ? digits : `+49${digits.replace(/^0/, '')}`}`;
}

/**
 * The sender's display name of a patient email: MAIL_FROM's own (German) for
 * German emails, the practice's English name for English ones (the address
 * stays MAIL_FROM's).
 */
export function emailSenderName(lang: 'de' | 'en'): string | undefined {
  return lang === 'en' ? practice.name.en : undefined;
}

export function fullAddress(p: Practice = practice): string {
  return `${p.street}, ${p.postalCode} ${p.city}`;
}

/**
 * The practice's facts (address, phone, fax, email, opening hours), defined
 * once in src/content/practice.json and checked here, so a typo fails the
 * build instead of reaching a patient.
 */
import raw from '../content/practice.json' with { type: 'json' };
import { practiceSchema, type Practice } from './practice-schema';

export { practiceSchema, type Practice };

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

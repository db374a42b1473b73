/**
 * The schema of the practice's facts (src/content/practice.json), apart from
 * the facts themselves so that the content editor's server checks a save
 * with it without loading the copy of the file that was built in.
 */
import { adminText } from './admin-text';
import { isCleanLine } from './text-input';
import * as z from './zod';

/**
 * The practice's name, doctor and address end up in email headers and
 * bodies, calendar files and every page: they follow the admin text rules
 * (docs/decisions/015-admin-text-rules.md): one line, no control or bidi
 * characters, no encoded word.
 */
const line = (max: number) => adminText('admin.errors.required', max);

/** A phone or fax number as shown: digits, spaces, + ( ) / - and at least five digits. */
const phoneNumber = z
  .string()
  .check(
    z.trim(),
    z.maxLength(40, 'admin.errors.tooLong'),
    z.refine((v) => /^\+?[0-9 ()/-]+$/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 5, 'content.errors.phone'),
  );

const time = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:mm'));

export const practiceSchema = z.object({
  /** Display name per language. */
  name: z.object({ de: line(120), en: line(120) }),
  /** The responsible physician, as shown in the legal notice. */
  doctor: line(120),
  street: line(120),
  postalCode: z.string().check(z.regex(/^\d{5}$/)),
  city: line(80),
  /** ISO 3166-1 alpha-2 */
  country: z.string().check(z.length(2)),
  /** As shown, e.g. "0211 123 456 0"; the tel: link is derived from it. */
  phone: phoneNumber,
  fax: phoneNumber,
  /** The practice's address: Reply-To of every email, so one clean line. */
  email: z.email().check(z.maxLength(254), z.refine(isCleanLine, 'admin.errors.invalidCharacters')),
  /** Weekdays 0 = Sunday .. 6 = Saturday. */
  openingHours: z
    .array(z.object({ days: z.array(z.number().check(z.int(), z.gte(0), z.lte(6))).check(z.minLength(1)), opens: time, closes: time }))
    .check(z.minLength(1)),
});

export type Practice = z.infer<typeof practiceSchema>;

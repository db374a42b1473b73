/**
 * The schema of the practice's facts (src/content/practice.json), apart from
 * the facts themselves so that the content editor's server checks a save
 * with it without loading the copy of the file that was built in.
 */
import { z } from './zod';

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

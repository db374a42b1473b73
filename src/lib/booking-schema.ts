/**
 * The booking request, one zod schema shared by the wizard's form and
 * POST /api/bookings. Messages are translation keys (bookingForm.errors.*,
 * errors.*), so the same failure reads the same in the form and the API.
 *
 * Bounds: docs/architecture.md, Security: bad input (real birth date in the past
 * and at most 130 years ago; a phone number valid for its country, German
 * by default, kept in E.164 (phone.ts); one email address without line
 * breaks; names trimmed, 2–100 characters).
 *
 * The schemas with a phone field (the form's, POST /api/bookings') are in
 * booking-request-schema.ts: code that reads only dates, times or tokens
 * from here never loads the phone number metadata
 * (docs/decisions/043-sms-second-channel.md).
 */
import { CANCELLATION_TOKEN } from './cancellation-token';
import * as z from './zod';
import { addDaysToDate, berlinToday } from './berlin-time';
import { isLang, type Lang } from '../i18n/languages';
import { isCleanLine, toAsciiEmail, trimSpaces, visibleLength } from './text-input';
import { germanDateToIso, typedDateToIso } from './typed-date';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A consultation type id in its canonical form: zod accepts any letter case
 * and Postgres compares uuids ignoring it, so everything after the schema
 * (comparisons, hashes, responses) sees the one lower-case spelling.
 */
const canonicalUuid = z.pipe(
  z.string({ error: 'errors.typeRequired' }).check(z.regex(UUID, 'errors.typeRequired')),
  z.transform((id) => id.toLowerCase()),
);

/** True for a real calendar date written yyyy-MM-dd (no 31 February). */
export function isRealDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1000;
}

// Apart so the plain scripts of the patient pages can read typed dates without zod.
export { germanDateToIso, typedDateToIso };

/** A birth date must lie in the past and at most 130 years back (Berlin's today). */
export function isPlausibleBirthDate(iso: string, today: string = berlinToday()): boolean {
  if (!isRealDate(iso) || iso >= today) return false;
  const [y, m, d] = today.split('-');
  return iso >= `${Number(y) - 130}-${m}-${d}`;
}

/**
/**
 * What is wrong with a birth date written yyyy-MM-dd, as a translation key,
 * or null: not a date at all, a day that does not exist (31 February), one
 * in the future (today included), or more than 130 years back.
 */
export function birthDateProblem(iso: string | null, today: string = berlinToday()): string | null {
  if (iso === null || !ISO_DATE.test(iso)) return 'bookingForm.errors.birthDateFormat';
  if (!isRealDate(iso)) return 'bookingForm.errors.birthDateImpossible';
  if (iso >= today) return 'bookingForm.errors.birthDateFuture';
  return isPlausibleBirthDate(iso, today) ? null : 'bookingForm.errors.birthDateInvalid';
}

/** A birth date field: `toIso` reads the typed text; one message naming what is wrong. */
export const birthDate = (toIso: (value: string) => string | null) =>
  z.string({ error: 'bookingForm.errors.birthDateFormat' }).check(
    z.trim(),
    z.superRefine((value, ctx) => {
      const problem = birthDateProblem(toIso(value));
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );

/**
 * A name: NFC, no control, format (bidi marks included), noncharacter or line-separator characters, at least 2
 * visible characters (a name of zero-width characters only has none).
 */
const name = (minKey: string) =>
  z.string({ error: minKey }).check(
    z.overwrite(trimSpaces),
    z.normalize('NFC'),
    z.maxLength(100, 'bookingForm.errors.nameTooLong'),
    z.refine(isCleanLine, 'bookingForm.errors.nameInvalid'),
    z.refine((v) => visibleLength(v) >= 2, minKey),
  );

/** One ASCII address (an internationalised domain as punycode), no control characters. */
export const emailSchema = z.pipe(
  z.pipe(
    z.string({ error: 'bookingForm.errors.emailRequired' }).check(z.trim(), z.minLength(1, 'bookingForm.errors.emailRequired'), z.maxLength(254, 'bookingForm.errors.emailInvalid')),
    z.transform((v) => toAsciiEmail(v) ?? ''),
  ),
  z.email({ error: 'bookingForm.errors.emailInvalid' }),
);

/** The fields of a booking's request that other requests share (the waitlist's, the staff's). */
export const bookingFields = {
  appointment_type_id: canonicalUuid,
  appointment_date: z.string({ error: 'errors.dateInvalid' }).check(z.refine(isRealDate, 'errors.dateInvalid')),
  appointment_time: z.string({ error: 'errors.timeInvalid' }).check(z.regex(HH_MM, 'errors.timeInvalid')),
  first_name: name('bookingForm.errors.firstNameMin'),
  last_name: name('bookingForm.errors.lastNameMin'),
  /** yyyy-MM-dd (the form's typed date is read by patientFormSchemaFor). */
  birth_date: birthDate((v) => v),
  email: emailSchema,
  consent: z.literal(true, { error: 'bookingForm.errors.consentRequired' }),
  // The cast keeps the type guard's narrowing, which classic `.refine(isLang)` applied and a mini check does not.
  language: z.string({ error: 'errors.languageInvalid' }).check(z.refine(isLang, 'errors.languageInvalid')) as z.ZodMiniString<string> & z.ZodMiniType<Lang, string>,
  /**
   * The patient agreed to SMS at this number (docs/decisions/043-sms-second-channel.md);
   * absent means no. A number that is not a mobile one is refused on the
   * server (400 phone-not-mobile naming `phone`).
   */
  sms: z.optional(z.boolean({ error: 'errors.smsInvalid' })),
};

/** GET /api/availability: at most 62 days in one request. */
export const MAX_AVAILABILITY_DAYS = 62;
export const availabilityQuerySchema = z
  .object({
    type: canonicalUuid,
    from: z.string({ error: 'errors.dateInvalid' }).check(z.refine(isRealDate, 'errors.dateInvalid')),
    to: z.string({ error: 'errors.dateInvalid' }).check(z.refine(isRealDate, 'errors.dateInvalid')),
  })
  .check(
    z.refine((q) => !isRealDate(q.from) || !isRealDate(q.to) || q.from <= q.to, {
      path: ['to'],
      message: 'errors.rangeReversed',
    }),
    z.refine((q) => !isRealDate(q.from) || !isRealDate(q.to) || q.to <= addDaysToDate(q.from, MAX_AVAILABILITY_DAYS - 1), {
      path: ['to'],
      message: 'errors.rangeTooLong',
    }),
  );

/** The cancellation token: 43 URL-safe characters (32 random bytes, base64url). */
export const cancellationTokenSchema = z.string({ error: 'errors.tokenInvalid' }).check(z.regex(CANCELLATION_TOKEN, 'errors.tokenInvalid'));

/** POST /api/bookings/reschedule: the link's token and the new time of the same type. */
export const rescheduleRequestSchema = z.object({
  token: cancellationTokenSchema,
  appointment_date: bookingFields.appointment_date,
  appointment_time: bookingFields.appointment_time,
  /** The reschedule page's language (for the practice's notice); German when absent. */
  language: z.optional(z.string({ error: 'errors.languageInvalid' }).check(z.refine(isLang, 'errors.languageInvalid')) as z.ZodMiniString<string> & z.ZodMiniType<Lang, string>),
});

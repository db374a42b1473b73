/**
 * The waitlist's requests and its fitting rule (docs/decisions/032-waitlist.md),
 * shared by the patient's forms and the API. Messages are keys of
 * src/lib/waitlist-texts.ts (`waitlist.errors.*`) or the booking form's
 * (`bookingForm.errors.*`, `errors.*`), so a refusal reads the same in the
 * form and in the API's `errors`.
 */
import { CANCELLATION_TOKEN } from './cancellation-token';
import { bookingFields, isRealDate } from './booking-schema';
import { phoneSchema } from './phone';
import { addDaysToDate } from './berlin-time';
import { DAYPARTS } from './waitlist-wish';
import * as z from './zod';

const date = (field: string) =>
  z.string({ error: `waitlist.errors.${field}Invalid` }).check(z.refine(isRealDate, `waitlist.errors.${field}Invalid`));

/** An entry link or offer link token: the shape of a booking's link token. */
export const waitlistTokenSchema = z.string({ error: 'errors.tokenInvalid' }).check(z.regex(CANCELLATION_TOKEN, 'errors.tokenInvalid'));

const wish = {
  from: date('from'),
  to: date('to'),
  /** ISO weekdays, 1 = Monday .. 7 = Sunday; any day when absent or empty. */
  weekdays: z.optional(
    z
      .array(
        z
          .number({ error: 'waitlist.errors.weekdaysInvalid' })
          .check(z.int('waitlist.errors.weekdaysInvalid'), z.gte(1, 'waitlist.errors.weekdaysInvalid'), z.lte(7, 'waitlist.errors.weekdaysInvalid')),
        { error: 'waitlist.errors.weekdaysInvalid' },
      )
      .check(z.maxLength(7, 'waitlist.errors.weekdaysInvalid')),
  ),
  dayparts: z.optional(
    z
      .array(z.enum(DAYPARTS, { error: 'waitlist.errors.daypartsInvalid' }), { error: 'waitlist.errors.daypartsInvalid' })
      .check(z.maxLength(2, 'waitlist.errors.daypartsInvalid')),
  ),
};

/** POST /api/waitlist with a booking's link token: an earlier time of the booking's type. */
export const waitlistWithBookingSchema = z.object({ token: waitlistTokenSchema, sms: bookingFields.sms, ...wish });

/**
 * POST /api/waitlist from the success screen, right after booking: the new
 * booking's id (a random uuid the booking's answer gave this browser),
 * accepted for NEW_BOOKING_MINUTES after the booking was made.
 */
export const waitlistWithNewBookingSchema = z.object({
  booking_id: z.pipe(
    z.string({ error: 'errors.invalid' }).check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'errors.invalid')),
    z.transform((v) => v.toLowerCase()),
  ),
  sms: bookingFields.sms,
  ...wish,
});

/**
 * POST /api/waitlist without a booking: step 3's details (same text rules
 * and consent), the phone number required as in a booking, so the booking
 * an offer becomes can be called about.
 */
export const waitlistWithoutBookingSchema = /* @__PURE__ */ withoutBooking();
function withoutBooking() {
  return z.object({
    appointment_type_id: bookingFields.appointment_type_id,
    first_name: bookingFields.first_name,
    last_name: bookingFields.last_name,
    birth_date: bookingFields.birth_date,
    email: bookingFields.email,
    phone: phoneSchema,
    language: bookingFields.language,
    consent: bookingFields.consent,
    sms: bookingFields.sms,
    ...wish,
  });
}

/**
 * POST /api/waitlist/offer: an offer's link token (its own time, or the
 * next free time shown after a lost race), or the entry's token from the
 * join's answer with a time that was free then.
 */
export const takeOfferSchema = z
  .object({
    token: waitlistTokenSchema,
    appointment_date: z.optional(bookingFields.appointment_date),
    appointment_time: z.optional(bookingFields.appointment_time),
  })
  .check(
    z.refine((b) => (b.appointment_date === undefined) === (b.appointment_time === undefined), {
      path: ['appointment_time'],
      message: 'errors.timeInvalid',
    }),
  );

/** GET /api/admin/waitlist/counts: from … to (both included, at most 62 days). */
export const waitlistCountsQuerySchema = z
  .object({
    from: z.string({ error: 'admin.errors.invalid' }).check(z.refine(isRealDate, 'admin.errors.invalid')),
    to: z.string({ error: 'admin.errors.invalid' }).check(z.refine(isRealDate, 'admin.errors.invalid')),
  })
  .check(
    z.refine((q) => !isRealDate(q.from) || !isRealDate(q.to) || (q.from <= q.to && q.to <= addDaysToDate(q.from, 61)), {
      path: ['to'],
      message: 'admin.errors.invalid',
    }),
  );

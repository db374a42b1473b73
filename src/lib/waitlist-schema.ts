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
import { candidateTimes, type WeeklyWindow } from './availability';
import * as z from './zod';

/** Morning: a start before 12:00; afternoon: from 12:00. */
export const DAYPARTS = ['morning', 'afternoon'] as const;
export type Daypart = (typeof DAYPARTS)[number];

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
export const NEW_BOOKING_MINUTES = 30;

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

export type WaitlistWish = { from: string; to: string; weekdays?: number[]; dayparts?: Daypart[] };

/** `from` after `to`: 400 naming `to`. */
export function reversedRange(wish: WaitlistWish): boolean {
  return wish.from > wish.to;
}

/** ISO weekdays as the stored bit mask (Monday = 1 … Sunday = 64); every day when none is given. */
export function weekdayMask(weekdays: number[] | undefined): number {
  if (!weekdays?.length) return 127;
  return weekdays.reduce((mask, d) => mask | (1 << (d - 1)), 0);
}

export function weekdaysOfMask(mask: number): number[] {
  return [1, 2, 3, 4, 5, 6, 7].filter((d) => mask & (1 << (d - 1)));
}

/** Dayparts as the stored bit mask (1 morning, 2 afternoon); both when none is given. */
export function daypartMask(dayparts: Daypart[] | undefined): number {
  if (!dayparts?.length) return 3;
  return dayparts.reduce((mask, p) => mask | (p === 'morning' ? 1 : 2), 0);
}

export function daypartsOfMask(mask: number): Daypart[] {
  return DAYPARTS.filter((_, i) => mask & (1 << i));
}

/** The part of the day a start time lies in: before 12:00 morning, from 12:00 afternoon. */
export function daypartOf(time: string): Daypart {
  return time < '12:00' ? 'morning' : 'afternoon';
}

/**
 * The parts of the day in which the type has start times on each ISO
 * weekday (1 = Monday … 7 = Sunday) that has any: the waitlist form offers
 * only these, and joining refuses others (a wish no time can ever meet).
 */
export function daypartsByWeekday(windows: WeeklyWindow[], durationMinutes: number): Record<number, Daypart[]> {
  const parts: Record<number, Daypart[]> = {};
  for (let iso = 1; iso <= 7; iso++) {
    const times = candidateTimes(windows, iso % 7, durationMinutes);
    const found = DAYPARTS.filter((part) => times.some((time) => daypartOf(time) === part));
    if (found.length) parts[iso] = found;
  }
  return parts;
}

/** The parts of the day offered on any of `weekdays` (every weekday with windows when none is given). */
export function daypartsOn(byWeekday: Record<number, Daypart[]>, weekdays?: number[]): Daypart[] {
  const days = weekdays?.length ? weekdays : Object.keys(byWeekday).map(Number);
  return DAYPARTS.filter((part) => days.some((d) => byWeekday[d]?.includes(part)));
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a yyyy-MM-dd date. */
export function isoWeekday(dateValue: string): number {
  const [y, m, d] = dateValue.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return day === 0 ? 7 : day;
}

export interface EntryWish {
  fromDate: string;
  toDate: string;
  weekdays: number;
  dayparts: number;
  /** The booking's current time; an offer must be earlier. Null without a booking. */
  current: { date: string; time: string } | null;
}

/** Whether a free (date, HH:mm) fits an entry: its range, weekdays, part of day, and earlier than its booking. */
export function fitsEntry(entry: EntryWish, dateValue: string, time: string): boolean {
  if (dateValue < entry.fromDate || dateValue > entry.toDate) return false;
  if (!(entry.weekdays & (1 << (isoWeekday(dateValue) - 1)))) return false;
  const part = daypartOf(time) === 'morning' ? 1 : 2;
  if (!(entry.dayparts & part)) return false;
  if (entry.current && `${dateValue} ${time}` >= `${entry.current.date} ${entry.current.time}`) return false;
  return true;
}

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

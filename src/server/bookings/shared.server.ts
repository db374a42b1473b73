/**
 * What every booking action shares: tokens, the begun test, the rules a
 * booking is checked by (the wizard's or staff's) and the 409 that names
 * why a time cannot be taken (409 slot-unavailable with `reason`, docs/architecture.md HTTP API).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { TypeRules, TimeRejection } from '../../lib/availability';
import { berlinInstant, berlinWallClock } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import { DEFAULT_HOLIDAY_SETTINGS, holidayStateOn } from '../../lib/holidays';

export type BookingSource = 'online' | 'phone';

/** The DB `time` columns read HH:mm:ss; the API speaks HH:mm. */
export const hhmm = (time: string) => time.slice(0, 5);

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** 256 random bits, URL-safe (at least 128 bits; only the hash is kept, docs/architecture.md Privacy). */
export function newCancellationToken(): string {
  return randomBytes(32).toString('base64url');
}

export { fromJson, rowsOf } from '../../../db/rows';

/** Whether the appointment has begun (Berlin wall clock), after which neither patient nor staff change it. */
export function hasBegun(date: string, time: string, now: Date): boolean {
  const start = berlinInstant(date, time);
  if (start) return start.getTime() <= now.getTime();
  const clock = berlinWallClock(now);
  return `${date} ${time}` <= `${clock.date} ${clock.time}`;
}

/**
 * Whose rules a booking follows: the wizard's (the type's advance window,
 * same-day types only today) or staff's (any date up to 365 days ahead,
 * docs/decisions/020-reception.md). Past, blocks, windows and capacity bind both.
 */
export type BookingRules = 'online' | 'staff';

/** How far ahead staff may book or move, whatever the type's online window. */
export const STAFF_MAX_ADVANCE_DAYS = 365;

export function rulesOf<T extends TypeRules>(type: T, rules: BookingRules): T {
  return rules === 'staff' ? { ...type, maxAdvanceDays: STAFF_MAX_ADVANCE_DAYS } : type;
}

/** Why a time cannot be taken, shown in German in the back office. */
export type SlotReason = 'not-a-start-time' | 'blocked' | 'full' | 'past' | 'too-far-ahead' | 'same-time' | 'holiday';

export function slotReason(rejection: TimeRejection): SlotReason {
  switch (rejection) {
    case 'past':
    case 'passed':
      return 'past';
    case 'blocked':
    case 'full':
    case 'holiday':
      return rejection;
    case 'not-today':
    case 'beyond-advance':
      return 'too-far-ahead';
    default:
      return 'not-a-start-time';
  }
}

function slotUnavailableDetail(rejection: TimeRejection | 'unknown-type'): string {
  switch (rejection) {
    case 'full':
      return 'This time has just been booked by someone else.';
    case 'passed':
      return 'This time has already passed.';
    case 'not-a-slot':
      return 'This is not a bookable start time for this consultation type.';
    case 'unknown-type':
      return 'This consultation type is not offered (any more).';
    case 'holiday':
      return 'The practice is closed on this date (a public holiday).';
    default:
      return 'This date cannot be booked for this consultation type.';
  }
}

/**
 * 409 slot-unavailable naming its reason. A closed day (`holiday`) names
 * the day too (`holiday: { date, name, name_en, statutory }`), so the staff
 * dialog can warn with its name and offer to book all the same
 * (`confirm_holiday`); under staff rules its detail is German, as every
 * back-office text (docs/decisions/039-public-holidays.md).
 */
export function slotUnavailable(rejection: TimeRejection | 'unknown-type', context: { date?: string; rules?: BookingRules } = {}): AppError {
  if (rejection === 'holiday' && context.date) {
    const day = holidayStateOn(context.date, DEFAULT_HOLIDAY_SETTINGS);
    const holiday = day ? { date: day.date, name: day.name, name_en: day.name_en, statutory: day.statutory } : null;
    const detail =
      context.rules === 'staff' && holiday
        ? `Am ${holiday.date.split('-').reverse().join('.')} (${holiday.name}) ist die Praxis geschlossen${holiday.statutory ? ': gesetzlicher Feiertag' : ''}. Buchen Sie trotzdem, bestätigen Sie es (confirm_holiday).`
        : slotUnavailableDetail(rejection);
    return new AppError('slot-unavailable', detail, undefined, { extra: { reason: 'holiday', holiday } });
  }
  const extra = rejection === 'unknown-type' ? undefined : { reason: slotReason(rejection) };
  return new AppError('slot-unavailable', slotUnavailableDetail(rejection), undefined, { extra });
}

export function sameTime(): AppError {
  return new AppError('slot-unavailable', "This is already the appointment's time.", undefined, { extra: { reason: 'same-time' } });
}

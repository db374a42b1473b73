/**
 * No SMS between 20:00 and 07:00 Berlin time (docs/decisions/043-sms-second-channel.md):
 * an SMS due then waits until 07:00, except the news that an appointment
 * before noon of the next day is cancelled (the patient would otherwise
 * set out for nothing). Outside production SMS_ANY_HOUR=true lifts them
 * (the browser tests run at any time of day).
 */
import { addDaysToDate, berlinInstant, berlinToday, berlinWallClock } from '../../lib/berlin-time';
import type { SmsNotice } from './texts.server';

export const QUIET_HOURS = { from: '20:00', to: '07:00' } as const;

export function inQuietHours(now: Date): boolean {
  const { time } = berlinWallClock(now);
  return time >= QUIET_HOURS.from || time < QUIET_HOURS.to;
}

/** The next 07:00 Berlin at or after `now` (now itself outside the quiet hours). */
export function quietHoursEnd(now: Date): Date {
  if (!inQuietHours(now)) return now;
  const { date, time } = berlinWallClock(now);
  const day = time >= QUIET_HOURS.from ? addDaysToDate(date, 1) : date;
  return berlinInstant(day, QUIET_HOURS.to) ?? now;
}

/** A cancellation of an appointment that starts before noon of the day after `now` (Berlin): it may go at night. */
export function mayGoAtNight(notice: SmsNotice, now: Date): boolean {
  if (notice.kind !== 'cancelled-by-practice' && notice.kind !== 'cancelled') return false;
  const start = berlinInstant(notice.date, notice.time);
  const noonTomorrow = berlinInstant(addDaysToDate(berlinToday(now), 1), '12:00');
  return Boolean(start && noonTomorrow && start.getTime() < noonTomorrow.getTime());
}

/** When an SMS queued at `now` may first go. */
export function firstAttemptAt(now: Date, exempt: boolean, anyHour = false): Date {
  return exempt || anyHour ? now : quietHoursEnd(now);
}

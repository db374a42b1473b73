/**
 * A waitlist entry's wish and its fitting rule (docs/decisions/032-waitlist.md):
 * the stored bit masks, the parts of the day, whether a free time fits. No
 * schema and no phone rules, so the every-minute job's offers load only this.
 */
import { candidateTimes, type WeeklyWindow } from './availability';

/** Morning: a start before 12:00; afternoon: from 12:00. */
export const DAYPARTS = ['morning', 'afternoon'] as const;
export type Daypart = (typeof DAYPARTS)[number];

/** Minutes after a booking in which its success screen may put it on the waitlist by its id. */
export const NEW_BOOKING_MINUTES = 30;

export type WaitlistWish = { from: string; to: string; weekdays?: number[]; dayparts?: Daypart[] };

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

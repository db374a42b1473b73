/**
 * Availability as a pure function of the type's rules, its weekly windows,
 * blocked dates, existing bookings and "now" (Cal.com's slots.ts idea).
 * No I/O, no Date arithmetic in the host's zone: dates are `yyyy-MM-dd`,
 * times `HH:mm`, both Berlin wall clock, so daylight-saving changes cannot
 * shift, drop or duplicate a time, and the server's own zone is irrelevant.
 *
 * Rules: docs/architecture.md, Availability and capacity (capacity counts,
 * today's past times are gone, the server decides).
 */
import { addDaysToDate, berlinInstant, berlinWallClock, isOffsetChangeDay, weekdayOf, type BerlinWallClock } from './berlin-time';

export interface TypeRules {
  /** 0 = same day only; otherwise the last bookable date is today + this many days. */
  maxAdvanceDays: number;
  slotDurationMinutes: number;
  /** Bookings allowed per start time. */
  maxSlotsPerTime: number;
}

export interface WeeklyWindow {
  /** 0 = Sunday .. 6 = Saturday */
  dayOfWeek: number;
  /** HH:mm or HH:mm:ss */
  startTime: string;
  endTime: string;
}

export interface AvailabilityInput {
  type: TypeRules;
  windows: WeeklyWindow[];
  /** Dates blocked for this type or for all types (whole days). */
  blockedDates: Iterable<string>;
  /**
   * Partial-day blocks for this type or for all types: a time whose
   * appointment [time, time + duration) overlaps [startTime, endTime) is
   * blocked (docs/decisions/010-staff-accounts-audit-day-list.md).
   */
  blockedRanges?: Iterable<BlockedRange>;
  /**
   * Days the practice is closed (public holidays it has not opened, and
   * 24/31 December when it closes them; src/lib/holidays.ts): rejected as
   * `holiday`. The server fills it from the practice's settings; staff rules
   * leave it empty where staff may book after a warning
   * (docs/decisions/039-public-holidays.md).
   */
  closedDates?: Iterable<string>;
  /** Existing bookings per `yyyy-MM-dd HH:mm`. */
  bookings: ReadonlyMap<string, number>;
  now: Date;
}

export interface BlockedRange {
  date: string;
  /** HH:mm or HH:mm:ss */
  startTime: string;
  endTime: string;
}

export type DateRejection = 'past' | 'not-today' | 'beyond-advance' | 'blocked' | 'holiday' | 'no-window';
export type TimeRejection = DateRejection | 'not-a-slot' | 'passed' | 'full';

export interface DayAvailability {
  date: string;
  /** Free start times, ascending; may be empty when every time is taken or gone. */
  times: string[];
}

/** Furthest the wizard searches for a selectable date. */
export const SEARCH_HORIZON_DAYS = 365;

export function toMinutes(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

export function fromMinutes(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export const slotKey = (date: string, time: string) => `${date} ${time}`;

/**
 * Candidate start times for one weekday: from each window's start in steps
 * of the duration, keeping a start only if the appointment ends by the
 * window's end. Overlapping windows do not duplicate a time.
 */
export function candidateTimes(windows: WeeklyWindow[], dayOfWeek: number, durationMinutes: number): string[] {
  if (durationMinutes <= 0) return [];
  const starts = new Set<number>();
  for (const w of windows) {
    if (w.dayOfWeek !== dayOfWeek) continue;
    const end = toMinutes(w.endTime);
    for (let start = toMinutes(w.startTime); start + durationMinutes <= end; start += durationMinutes) {
      starts.add(start);
    }
  }
  return [...starts].sort((a, b) => a - b).map(fromMinutes);
}

/**
 * Start times of one date: the weekday's candidates, less any wall time that
 * does not exist that day (the skipped hour of the spring DST change).
 */
export function timesOfDate(date: string, windows: WeeklyWindow[], durationMinutes: number): string[] {
  const times = candidateTimes(windows, weekdayOf(date), durationMinutes);
  return isOffsetChangeDay(date) ? times.filter((t) => berlinInstant(date, t) !== null) : times;
}

/** The last date the type may be booked for. */
export function lastBookableDate(today: string, type: TypeRules): string {
  return addDaysToDate(today, type.maxAdvanceDays);
}

/** Why a date cannot be chosen, or null when it can. */
export function dateRejection(
  date: string,
  today: string,
  type: TypeRules,
  windows: WeeklyWindow[],
  blocked: ReadonlySet<string>,
  closed: ReadonlySet<string> = new Set(),
): DateRejection | null {
  if (date < today) return 'past';
  if (type.maxAdvanceDays === 0 && date !== today) return 'not-today';
  if (date > lastBookableDate(today, type)) return 'beyond-advance';
  if (blocked.has(date)) return 'blocked';
  if (closed.has(date)) return 'holiday';
  const weekday = weekdayOf(date);
  if (!windows.some((w) => w.dayOfWeek === weekday)) return 'no-window';
  return null;
}

/** Whether the appointment starting at `time` overlaps a partial-day block of `date`. */
export function overlapsBlockedRange(date: string, time: string, durationMinutes: number, ranges: Iterable<BlockedRange> = []): boolean {
  const start = toMinutes(time);
  const end = start + durationMinutes;
  for (const r of ranges) {
    if (r.date === date && toMinutes(r.startTime) < end && start < toMinutes(r.endTime)) return true;
  }
  return false;
}

/**
 * Whether a start time of today has come (then it is no longer offered).
 * On the day clocks go back, a wall time of the repeated hour begins at its
 * first, summer-time instant (berlinInstant), as an appointment's start is
 * counted everywhere else ("bereits begonnen", "nicht erschienen"): during
 * the hour's second pass those times stay gone rather than come back.
 */
function hasCome(date: string, time: string, clock: BerlinWallClock, now: Date): boolean {
  if (date !== clock.date) return false;
  if (isOffsetChangeDay(date)) {
    const start = berlinInstant(date, time);
    return start === null || start.getTime() <= now.getTime();
  }
  return time <= clock.time;
}

/** Free times of a selectable date: capacity left, not in a blocked range, and for today only times later than now. */
export function freeTimes(date: string, input: AvailabilityInput, clock: BerlinWallClock = berlinWallClock(input.now)): string[] {
  const times = timesOfDate(date, input.windows, input.type.slotDurationMinutes);
  const ranges = [...(input.blockedRanges ?? [])].filter((r) => r.date === date);
  return times.filter(
    (time) =>
      !hasCome(date, time, clock, input.now) &&
      !overlapsBlockedRange(date, time, input.type.slotDurationMinutes, ranges) &&
      (input.bookings.get(slotKey(date, time)) ?? 0) < input.type.maxSlotsPerTime,
  );
}

/** Every selectable date in [from, to] with its free times. */
export function availabilityForRange(from: string, to: string, input: AvailabilityInput): DayAvailability[] {
  const clock = berlinWallClock(input.now);
  const today = clock.date;
  const blocked = new Set(input.blockedDates);
  const closed = new Set(input.closedDates);
  const days: DayAvailability[] = [];
  for (let date = from < today ? today : from; date <= to; date = addDaysToDate(date, 1)) {
    if (dateRejection(date, today, input.type, input.windows, blocked, closed) === null) {
      days.push({ date, times: freeTimes(date, input, clock) });
    }
  }
  return days;
}

/**
 * Why a start time cannot be booked, or null when it can: the server's
 * re-check of a booking. A closed day (`holiday`) is named last, only when
 * nothing else stands in the way: staff may book it after a warning, and
 * the warning is only worth giving when confirming it would book.
 */
export function timeRejection(date: string, time: string, input: AvailabilityInput): TimeRejection | null {
  const clock = berlinWallClock(input.now);
  const dateIssue = dateRejection(date, clock.date, input.type, input.windows, new Set(input.blockedDates));
  if (dateIssue) return dateIssue;
  if (!timesOfDate(date, input.windows, input.type.slotDurationMinutes).includes(time)) {
    return 'not-a-slot';
  }
  if (hasCome(date, time, clock, input.now)) return 'passed';
  if (overlapsBlockedRange(date, time, input.type.slotDurationMinutes, input.blockedRanges)) return 'blocked';
  if ((input.bookings.get(slotKey(date, time)) ?? 0) >= input.type.maxSlotsPerTime) return 'full';
  if (new Set(input.closedDates).has(date)) return 'holiday';
  return null;
}

/**
 * The first selectable date on or after `from` (the selection
 * moves there), searching at most SEARCH_HORIZON_DAYS ahead; null if none.
 */
export function firstSelectableDate(
  from: string,
  now: Date,
  type: TypeRules,
  windows: WeeklyWindow[],
  blockedDates: Iterable<string>,
): string | null {
  const today = berlinWallClock(now).date;
  const blocked = new Set(blockedDates);
  const start = from < today ? today : from;
  for (let i = 0; i <= SEARCH_HORIZON_DAYS; i++) {
    const date = addDaysToDate(start, i);
    if (date > lastBookableDate(today, type)) return null;
    if (dateRejection(date, today, type, windows, blocked) === null) return date;
  }
  return null;
}

/**
 * The practice's clock. Every "today", "now" and weekday is taken in
 * Europe/Berlin whatever the server's or browser's zone (docs/architecture.md, Time).
 * Dates travel as `yyyy-MM-dd`, times as `HH:mm`, both Berlin wall clock.
 */
export const PRACTICE_TIME_ZONE = 'Europe/Berlin';

/**
 * Berlin's clock follows the EU's summer-time rule (Directive 2000/84/EC,
 * as the IANA zone Europe/Berlin records it from 1996): UTC+2 from the last
 * Sunday of March, 01:00 UTC, to the last Sunday of October, 01:00 UTC,
 * UTC+1 otherwise. Within RULE_YEARS the wall clock is computed from that
 * rule; outside them (and for an invalid date) Intl answers from the time
 * zone database. The rule is used because a process's first Intl object
 * loads ICU's data, which costs a function's cold start about as much as
 * all of its code (docs/decisions/023-functions-pre-bundled.md). Its test
 * compares it with Intl for every hour of RULE_YEARS and every minute
 * around each change, so a change of the rule in the zone database (the EU
 * ending clock changes) fails the suite before it can shift a time.
 */
const RULE_YEARS = { from: 1996, to: 2099 } as const;
const HOUR_MS = 3_600_000;

/** The instant of 01:00 UTC on the last Sunday of `month` (0-based) in `year`. */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/** Berlin's offset from UTC at `ms` by the rule, or null outside RULE_YEARS. */
function ruleOffsetMs(ms: number): number | null {
  const year = new Date(ms).getUTCFullYear();
  if (!(year >= RULE_YEARS.from && year <= RULE_YEARS.to)) return null;
  const summer = ms >= lastSundayAtOneUtc(year, 2) && ms < lastSundayAtOneUtc(year, 9);
  return summer ? 2 * HOUR_MS : HOUR_MS;
}

/** Made on first use, for instants outside RULE_YEARS only. */
let wallClockFormat: Intl.DateTimeFormat | undefined;
const wallClock = () =>
  (wallClockFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: PRACTICE_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }));

export interface BerlinWallClock {
  /** yyyy-MM-dd */
  date: string;
  /** HH:mm */
  time: string;
}

/** The Berlin wall-clock date and time of an instant, from the time zone database (Intl). */
export function zoneDatabaseWallClock(instant: Date): BerlinWallClock {
  const parts = Object.fromEntries(wallClock().formatToParts(instant).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The Berlin wall-clock date and time of an instant. */
export function berlinWallClock(instant: Date): BerlinWallClock {
  const ms = instant.getTime();
  const offset = ruleOffsetMs(ms);
  if (offset === null) return zoneDatabaseWallClock(instant);
  const local = new Date(ms + offset).toISOString();
  return { date: local.slice(0, 10), time: local.slice(11, 16) };
}

/** Today's date in Berlin, yyyy-MM-dd. */
export function berlinToday(now: Date = new Date()): string {
  return berlinWallClock(now).date;
}

/** A calendar date plus whole days, on the calendar (no clock, no DST). */
export function addDaysToDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(y, m - 1, d + days));
  return utc.toISOString().slice(0, 10);
}

/** 0 = Sunday .. 6 = Saturday for a calendar date. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * The instant a Berlin wall-clock date and time denotes, or null when that
 * wall time does not exist (the hour skipped when clocks spring forward).
 * In the repeated autumn hour the first (summer-time) instant is taken.
 */
export function berlinInstant(date: string, time: string): Date | null {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  const asUtc = Date.UTC(y, m - 1, d, h, min);
  // Berlin is UTC+2 in summer and UTC+1 in winter.
  for (const offsetHours of [2, 1]) {
    const instant = new Date(asUtc - offsetHours * 3_600_000);
    const clock = berlinWallClock(instant);
    if (clock.date === date && clock.time === time.slice(0, 5)) return instant;
  }
  return null;
}

/**
 * Whether Berlin's UTC offset changes during this calendar date (the last
 * Sundays of March and October, at 01:00 UTC). Only then can a wall time
 * be missing, so only then is the costlier per-time check needed.
 */
export function isOffsetChangeDay(date: string): boolean {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const offsetHours = (utcHour: number) => {
    const berlinHour = Number(berlinWallClock(new Date(Date.UTC(y, m - 1, d, utcHour))).time.slice(0, 2));
    return (berlinHour - utcHour + 24) % 24;
  };
  return offsetHours(0) !== offsetHours(23);
}

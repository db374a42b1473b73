/**
 * The e2e suite's clock. With E2E_NOW set (playwright.config.ts), the
 * server, every browser context and these helpers read that instant at the
 * real time E2E_NOW_AT and run on from there (scripts/shifted-clock.mjs);
 * without it they read the real clock. A test asks these for "now" and
 * "today", never `new Date()` or `Date.now()`, and counts days on the
 * calendar (addDaysToDate), never in 24-hour steps, which skip or repeat a
 * date across a daylight-saving switch.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { addDaysToDate, berlinWallClock } from '../../../src/lib/berlin-time';
import { publicHolidayOn } from '../../../src/lib/holidays';
import { offsetFor } from '../../../scripts/shifted-clock.mjs';

// Fixed by the first process that loads this (Playwright's main process,
// through playwright.config.ts); its workers inherit it.
if (process.env.E2E_NOW && !process.env.E2E_NOW_AT) process.env.E2E_NOW_AT = String(Date.now());

/** Milliseconds the suite's clock is ahead of the real one (0 without E2E_NOW). */
export const clockOffsetMs = process.env.E2E_NOW ? offsetFor(process.env.E2E_NOW, Number(process.env.E2E_NOW_AT)) : 0;

/** The suite's current instant. */
export const now = (): Date => new Date(Date.now() + clockOffsetMs);

/** Today in Berlin, yyyy-MM-dd, on the suite's clock. */
export const berlinToday = (): string => berlinWallClock(now()).date;

/** The Berlin date `days` calendar days from today (negative: before). */
export const berlinDate = (days: number): string => addDaysToDate(berlinToday(), days);

/** The Berlin wall-clock time now, HH:mm. */
export const berlinTimeNow = (): string => berlinWallClock(now()).time;

/**
 * The environment that starts a Node process (the local server) on the
 * suite's clock: the preload and its two variables. Empty without E2E_NOW.
 */
export function clockEnv(): Record<string, string> {
  if (!process.env.E2E_NOW) return {};
  const preload = pathToFileURL(path.resolve(import.meta.dirname, '../../../scripts/clock-preload.mjs')).href;
  return {
    CLOCK_NOW: process.env.E2E_NOW,
    CLOCK_NOW_AT: process.env.E2E_NOW_AT!,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim(),
  };
}

/**
 * The first date from `date` on that begins `days` days in a row without a
 * public holiday in NRW (looking every `step` days: 7 keeps a Monday a
 * Monday). Holidays are closed to online booking and ask staff first
 * (docs/decisions/039-public-holidays.md), so a spec that books a day it
 * computes from today takes its days from here: on any day of the year,
 * E2E_NOW included, they are ordinary days.
 */
export function openDays(date: string, days = 1, step = 1): string {
  for (let start = date; ; start = addDaysToDate(start, step)) {
    if (Array.from({ length: days }, (_, i) => addDaysToDate(start, i)).every((d) => !publicHolidayOn(d))) return start;
  }
}

/**
 * `node --import ./scripts/clock-preload.mjs …` (or in NODE_OPTIONS): the
 * process's clock reads CLOCK_NOW (an instant with its UTC offset) at the
 * real time CLOCK_NOW_AT (epoch milliseconds; default: when the process
 * starts) and runs on from there (scripts/shifted-clock.mjs). The e2e suite
 * starts the local server with it to run on a chosen day (E2E_NOW in
 * playwright.config.ts). Development only: refused unless
 * APP_ENV=development, so a production process never runs on a made-up
 * clock. Without CLOCK_NOW it changes nothing.
 */
import { offsetFor, shiftClock } from './shifted-clock.mjs';

const instant = process.env.CLOCK_NOW;
if (instant) {
  try {
    if (process.env.APP_ENV !== 'development') throw new Error('the clock preload runs only with APP_ENV=development');
    const at = process.env.CLOCK_NOW_AT ? Number(process.env.CLOCK_NOW_AT) : Date.now();
    shiftClock(globalThis, offsetFor(instant, at));
  } catch (error) {
    console.error(`CLOCK_NOW: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

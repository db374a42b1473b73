/**
 * A clock set to a chosen instant that runs on from there: `Date.now()`,
 * `new Date()` and `Date()` read the real time plus a fixed offset; every
 * other use of Date (a given timestamp or date string, Date.UTC,
 * Date.parse), the timers and `performance` stay as they are. Used by the
 * local server's preload (scripts/clock-preload.mjs) and, as an init script,
 * in the e2e browser (tests/e2e/helpers/test.ts), so that the server, the
 * browser and the tests agree on "now" when the e2e suite runs on a chosen
 * day (`E2E_NOW`, docs/architecture.md, Tests).
 *
 * plain JavaScript, no imports: the function is also sent to the browser as
 * its source text.
 */

/**
 * Replaces `globalObject.Date` by one whose "now" is `offsetMs` ahead of the
 * real clock (behind when negative). Instances are real Dates (same
 * prototype), and classes that extend Date afterwards (TZDate) shift too.
 * Only once per global: a second call changes nothing and answers false.
 *
 * @param {typeof globalThis} globalObject
 * @param {number} offsetMs
 * @returns {boolean}
 */
export function shiftClock(globalObject, offsetMs) {
  const RealDate = globalObject.Date;
  if ('shiftedBy' in RealDate) return false;
  const now = () => RealDate.now() + offsetMs;
  /** @this {unknown} @param {unknown[]} args */
  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  }
  Object.setPrototypeOf(ShiftedDate, RealDate); // Date.UTC, Date.parse
  ShiftedDate.prototype = RealDate.prototype; // instanceof both ways
  Object.defineProperties(ShiftedDate, {
    name: { value: 'Date' },
    length: { value: RealDate.length },
    now: { value: now, writable: true, configurable: true },
    shiftedBy: { value: offsetMs },
  });
  globalObject.Date = /** @type {DateConstructor} */ (/** @type {unknown} */ (ShiftedDate));
  return true;
}

/**
 * The offset that makes the clock read `instant` at the real time `at`
 * (epoch milliseconds). The instant needs its UTC offset (`Z` or `±hh:mm`):
 * a bare local time would mean another moment on every machine.
 *
 * @param {string} instant e.g. 2026-12-31T19:30:00+01:00
 * @param {number} at
 * @returns {number}
 */
export function offsetFor(instant, at) {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(instant) ? Date.parse(instant) : NaN;
  if (Number.isNaN(ms)) throw new Error(`not an instant with its UTC offset: "${instant}" (e.g. 2026-12-31T19:30:00+01:00)`);
  if (!Number.isFinite(at)) throw new Error(`not a time in epoch milliseconds: "${at}"`);
  return ms - at;
}

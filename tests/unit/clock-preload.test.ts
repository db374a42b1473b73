/**
 * The shifted clock (scripts/shifted-clock.mjs) and the preload that puts a
 * Node process on it (scripts/clock-preload.mjs), as the e2e suite starts
 * the local server with E2E_NOW (tests/e2e/helpers/clock.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { offsetFor, shiftClock } from '../../scripts/shifted-clock.mjs';

const run = promisify(execFile);
// This process may itself run on a shifted clock (the unit tests are run at
// hard instants with the preload too): the real Date and the real time then.
const shiftedBy = (Date as unknown as { shiftedBy?: number }).shiftedBy ?? 0;
const RealDate: DateConstructor = 'shiftedBy' in Date ? Object.getPrototypeOf(Date) : Date;
const realNow = () => Date.now() - shiftedBy;
const ROOT = path.resolve(import.meta.dirname, '../..');
const PRELOAD = path.join(ROOT, 'scripts/clock-preload.mjs');
const HOUR = 3_600_000;

/** A global of its own with the real Date, shifted by `offsetMs`. */
function shifted(offsetMs: number) {
  const scope = { Date: RealDate } as unknown as typeof globalThis;
  shiftClock(scope, offsetMs);
  return scope.Date;
}

describe('shiftClock', () => {
  it('moves now by the offset: Date.now(), new Date() and Date()', () => {
    const ShiftedDate = shifted(-30 * 24 * HOUR);
    const before = realNow() - 30 * 24 * HOUR;
    const readings = [ShiftedDate.now(), new ShiftedDate().getTime(), Date.parse(ShiftedDate())];
    const after = realNow() - 30 * 24 * HOUR;
    for (const reading of readings.slice(0, 2)) {
      expect(reading).toBeGreaterThanOrEqual(before);
      expect(reading).toBeLessThanOrEqual(after);
    }
    // Date() has whole seconds.
    expect(readings[2]).toBeGreaterThanOrEqual(before - 1000);
    expect(readings[2]).toBeLessThanOrEqual(after);
  });

  it('leaves given times, Date.UTC and Date.parse alone, and its dates are real Dates', () => {
    const ShiftedDate = shifted(5 * HOUR);
    expect(new ShiftedDate(0).getTime()).toBe(0);
    expect(new ShiftedDate('2027-03-28T01:59:00+01:00').toISOString()).toBe('2027-03-28T00:59:00.000Z');
    expect(new ShiftedDate(2026, 11, 31).getDate()).toBe(31);
    expect(Number.isNaN(new ShiftedDate(undefined as unknown as number).getTime())).toBe(true);
    expect(ShiftedDate.UTC(2026, 11, 31)).toBe(RealDate.UTC(2026, 11, 31));
    expect(ShiftedDate.parse('2026-12-31T00:00:00Z')).toBe(Date.parse('2026-12-31T00:00:00Z'));
    const date = new ShiftedDate();
    expect(date).toBeInstanceOf(RealDate);
    expect(new RealDate()).toBeInstanceOf(ShiftedDate);
    expect(Object.prototype.toString.call(date)).toBe('[object Date]');
    expect(ShiftedDate.name).toBe('Date');
    expect(ShiftedDate.length).toBe(7);
  });

  it('shifts classes that extend it', () => {
    const ShiftedDate = shifted(48 * HOUR);
    class Later extends ShiftedDate {}
    const later = new Later();
    expect(later).toBeInstanceOf(Later);
    expect(later.getTime() - realNow()).toBeGreaterThan(47 * HOUR);
    expect(new Later(0).getTime()).toBe(0);
  });

  it('shifts once: a second call keeps the first offset', () => {
    const scope = { Date: RealDate } as unknown as typeof globalThis;
    expect(shiftClock(scope, HOUR)).toBe(true);
    expect(shiftClock(scope, 10 * HOUR)).toBe(false);
    expect(scope.Date.now() - realNow()).toBeLessThan(2 * HOUR);
  });
});

describe('offsetFor', () => {
  it('is the distance from the real time to the instant', () => {
    expect(offsetFor('2026-12-31T19:30:00+01:00', Date.parse('2026-12-31T18:00:00Z'))).toBe(30 * 60_000);
    expect(offsetFor('2027-03-28T03:05Z', 0)).toBe(Date.parse('2027-03-28T03:05:00Z'));
  });

  it('refuses an instant without its UTC offset, or no instant at all', () => {
    expect(() => offsetFor('2026-12-31T19:30:00', 0)).toThrow(/UTC offset/);
    expect(() => offsetFor('2026-12-31', 0)).toThrow(/UTC offset/);
    expect(() => offsetFor('2026-02-30T10:00:00+01:00x', 0)).toThrow(/UTC offset/);
    expect(() => offsetFor('2026-12-31T19:30:00+01:00', Number.NaN)).toThrow(/epoch milliseconds/);
  });
});

describe('the preload (node --import scripts/clock-preload.mjs)', () => {
  /** What `script` prints in a Node process started with the preload and `env`. */
  async function withPreload(script: string, env: Record<string, string>) {
    const { PATH, HOME } = process.env;
    return run(process.execPath, ['--import', PRELOAD, '--input-type=module', '-e', script], { cwd: ROOT, env: { PATH, HOME, TZ: 'UTC', ...env } });
  }

  it('starts the clock at CLOCK_NOW as of CLOCK_NOW_AT, and it runs on', async () => {
    const at = realNow();
    const { stdout } = await withPreload('console.log(Date.now(), new Date().toISOString())', {
      APP_ENV: 'development',
      CLOCK_NOW: '2026-12-31T19:30:00+01:00',
      CLOCK_NOW_AT: String(at),
    });
    const elapsed = realNow() - at;
    const [ms, iso] = stdout.trim().split(' ');
    const start = Date.parse('2026-12-31T18:30:00Z');
    expect(Number(ms)).toBeGreaterThanOrEqual(start);
    expect(Number(ms)).toBeLessThanOrEqual(start + elapsed);
    expect(iso!.startsWith('2026-12-31T18:3')).toBe(true);
  });

  it('without CLOCK_NOW_AT, the clock reads CLOCK_NOW when the process starts', async () => {
    const { stdout } = await withPreload('console.log(new Date().toISOString())', { APP_ENV: 'development', CLOCK_NOW: '2027-10-31T02:30:00+02:00' });
    expect(stdout.trim().slice(0, 16)).toBe('2027-10-31T00:30');
  });

  it('moves the embedded database too: PGlite reads now() from the same clock', async () => {
    const { stdout } = await withPreload(
      "import { PGlite } from '@electric-sql/pglite'; const db = await PGlite.create(); const { rows } = await db.query(\"select to_char(now() at time zone 'Europe/Berlin', 'YYYY-MM-DD HH24') as at\"); console.log(rows[0].at); await db.close();",
      { APP_ENV: 'development', CLOCK_NOW: '2027-03-28T03:05:00+02:00' },
    );
    // Generous: PGlite takes seconds to start on a busy machine.
    expect(stdout.trim()).toMatch(/^2027-03-28 0[34]$/);
  }, 60_000);

  it('refuses to run outside development, with one line naming why', async () => {
    for (const APP_ENV of ['production', '']) {
      const failed = await withPreload('console.log("ran")', { APP_ENV, CLOCK_NOW: '2026-12-31T19:30:00+01:00' }).then(
        () => null,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stdout).toBe('');
      expect(failed?.stderr.trim()).toBe('CLOCK_NOW: the clock preload runs only with APP_ENV=development');
    }
  });

  it('refuses an instant without its offset', async () => {
    const failed = await withPreload('console.log("ran")', { APP_ENV: 'development', CLOCK_NOW: '2026-12-31 19:30' }).catch((error: { code: number; stderr: string }) => error);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(/^CLOCK_NOW: not an instant with its UTC offset/);
  });

  it('changes nothing without CLOCK_NOW, in any environment', async () => {
    const before = realNow();
    const { stdout } = await withPreload('console.log(Date.now())', { APP_ENV: 'production' });
    expect(Number(stdout)).toBeGreaterThanOrEqual(before);
    expect(Number(stdout)).toBeLessThanOrEqual(realNow());
  });
});

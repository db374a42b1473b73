import { describe, expect, it } from 'vitest';
import { berlinInstant, berlinWallClock, isOffsetChangeDay, zoneDatabaseWallClock } from './berlin-time';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Every instant from `from` to `to` (UTC ms, `to` excluded) in steps of `step` whose wall clocks differ. */
function differences(from: number, to: number, step: number): string[] {
  const out: string[] = [];
  for (let ms = from; ms < to && out.length < 5; ms += step) {
    const instant = new Date(ms);
    const rule = berlinWallClock(instant);
    const zone = zoneDatabaseWallClock(instant);
    if (rule.date !== zone.date || rule.time !== zone.time) out.push(`${instant.toISOString()}: ${JSON.stringify(rule)} vs ${JSON.stringify(zone)}`);
  }
  return out;
}

describe("Berlin's wall clock by the EU summer-time rule", () => {
  it('agrees with the time zone database from 1996 to 2099, every 7 hours (so every hour of the day comes round)', () => {
    expect(differences(Date.UTC(1996, 0, 1), Date.UTC(2100, 0, 1), 7 * HOUR)).toEqual([]);
  });

  it('agrees minute by minute for three hours around every clock change from 1996 to 2099', () => {
    for (let year = 1996; year <= 2099; year++) {
      for (const month of [2, 9]) {
        const lastDay = new Date(Date.UTC(year, month + 1, 0));
        const change = Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
        expect(differences(change - 90 * MINUTE, change + 90 * MINUTE, MINUTE), `${year}-${month + 1}`).toEqual([]);
      }
    }
  });

  it('agrees on seconds and milliseconds (a wall time is never rounded up)', () => {
    for (const iso of ['2026-03-29T00:59:59.999Z', '2026-10-25T00:59:59.999Z', '2026-12-31T22:59:59.999Z', '2027-06-30T21:59:30.000Z']) {
      expect(berlinWallClock(new Date(iso))).toEqual(zoneDatabaseWallClock(new Date(iso)));
    }
  });

  it('names the known changes of 2026 and the year end', () => {
    expect(berlinWallClock(new Date('2026-03-29T00:59:00Z'))).toEqual({ date: '2026-03-29', time: '01:59' });
    expect(berlinWallClock(new Date('2026-03-29T01:00:00Z'))).toEqual({ date: '2026-03-29', time: '03:00' });
    expect(berlinWallClock(new Date('2026-10-25T00:59:00Z'))).toEqual({ date: '2026-10-25', time: '02:59' });
    expect(berlinWallClock(new Date('2026-10-25T01:00:00Z'))).toEqual({ date: '2026-10-25', time: '02:00' });
    expect(berlinWallClock(new Date('2026-12-31T23:00:00Z'))).toEqual({ date: '2027-01-01', time: '00:00' });
    expect(isOffsetChangeDay('2026-03-29')).toBe(true);
    expect(isOffsetChangeDay('2026-10-25')).toBe(true);
    expect(isOffsetChangeDay('2026-10-26')).toBe(false);
    expect(berlinInstant('2026-03-29', '02:30')).toBeNull();
    expect(berlinInstant('2026-10-25', '02:30')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('asks the time zone database outside the rule years, and refuses an invalid date as before', () => {
    // 1995: summer time in Germany still ended in September.
    expect(berlinWallClock(new Date('1995-10-01T12:00:00Z'))).toEqual({ date: '1995-10-01', time: '13:00' });
    expect(berlinWallClock(new Date('2100-07-01T12:00:00Z'))).toEqual(zoneDatabaseWallClock(new Date('2100-07-01T12:00:00Z')));
    expect(() => berlinWallClock(new Date(Number.NaN))).toThrow(RangeError);
  });
});

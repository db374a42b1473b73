/** The plain scripts' dates read like src/lib/dates.ts's on every day of two years, in both languages. */
import { describe, expect, it } from 'vitest';
import { addDaysToDate } from './berlin-time';
import { formatLongDate } from './dates';
import { longDate, shortWhen } from './plain-dates';

describe('plain dates', () => {
  it('longDate is formatLongDate (2029–2030, both languages)', () => {
    for (let date = '2029-01-01'; date <= '2030-12-31'; date = addDaysToDate(date, 1)) {
      expect(longDate(date, 'de')).toBe(formatLongDate(date, 'de'));
      expect(longDate(date, 'en')).toBe(formatLongDate(date, 'en'));
    }
  });

  it('shortWhen: "Do 3.12., 09:50" / "Thu 3 Dec, 09:50"', () => {
    expect(shortWhen('2026-12-03', '09:50', 'de')).toBe('Do 3.12., 09:50');
    expect(shortWhen('2026-12-03', '09:50', 'en')).toBe('Thu 3 Dec, 09:50');
    expect(shortWhen('2030-01-08', '09:00', 'de')).toBe('Di 8.1., 09:00');
    expect(shortWhen('2030-09-01', '14:20', 'en')).toBe('Sun 1 Sep, 14:20');
  });
});

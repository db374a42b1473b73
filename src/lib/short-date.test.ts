import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import { calendarDate } from './dates';
import { formatShortDate } from './short-date';

describe('formatShortDate', () => {
  it('writes dd.MM.yyyy as date-fns does, for every day of 2024–2032', () => {
    for (let day = new Date(Date.UTC(2024, 0, 1)); day.getUTCFullYear() < 2033; day.setUTCDate(day.getUTCDate() + 1)) {
      const iso = day.toISOString().slice(0, 10);
      expect(formatShortDate(iso)).toBe(format(calendarDate(iso), 'dd.MM.y'));
    }
    expect(formatShortDate('2026-03-01')).toBe('01.03.2026');
  });
});

import { describe, expect, it } from 'vitest';
import { daypartMask, daypartsOfMask, fitsEntry, isoWeekday, weekdayMask, weekdaysOfMask } from './waitlist-wish';

describe('the waitlist fitting rule', () => {
  const entry = { fromDate: '2030-01-07', toDate: '2030-01-11', weekdays: weekdayMask([2, 4]), dayparts: daypartMask(['morning']), current: null };

  it('masks round-trip; none given means every day and both parts', () => {
    expect(weekdaysOfMask(weekdayMask([7, 1]))).toEqual([1, 7]);
    expect(weekdayMask(undefined)).toBe(127);
    expect(daypartsOfMask(daypartMask([]))).toEqual(['morning', 'afternoon']);
    expect(isoWeekday('2030-01-13')).toBe(7);
    expect(isoWeekday('2030-01-07')).toBe(1);
  });

  it('fits only inside the range, on a chosen weekday, in the chosen part of day', () => {
    expect(fitsEntry(entry, '2030-01-08', '09:00')).toBe(true);
    expect(fitsEntry(entry, '2030-01-08', '12:00')).toBe(false);
    expect(fitsEntry(entry, '2030-01-09', '09:00')).toBe(false);
    expect(fitsEntry(entry, '2030-01-15', '09:00')).toBe(false);
  });

  it('with a booking: only earlier than it', () => {
    const booked = { ...entry, current: { date: '2030-01-10', time: '09:00' } };
    expect(fitsEntry(booked, '2030-01-10', '08:40')).toBe(true);
    expect(fitsEntry(booked, '2030-01-10', '09:00')).toBe(false);
    expect(fitsEntry(booked, '2030-01-10', '09:20')).toBe(false);
  });
});

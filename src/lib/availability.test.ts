import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availabilityForRange,
  candidateTimes,
  dateRejection,
  firstSelectableDate,
  freeTimes,
  slotKey,
  timeRejection,
  type AvailabilityInput,
  type TypeRules,
  type WeeklyWindow,
} from './availability';
import { berlinInstant, berlinToday, berlinWallClock, isOffsetChangeDay } from './berlin-time';

// The practice's windows: Monday–Friday 08:20–13:40.
const weekdays: WeeklyWindow[] = [1, 2, 3, 4, 5].map((dayOfWeek) => ({
  dayOfWeek,
  startTime: '08:20:00',
  endTime: '13:40:00',
}));
const checkUp: TypeRules = { maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 };
const acute: TypeRules = { maxAdvanceDays: 0, slotDurationMinutes: 10, maxSlotsPerTime: 2 };

/** An instant given as Berlin wall clock, written with its offset so the test reads as the practice sees it. */
const at = (iso: string) => new Date(iso);
// Monday 23 November 2026, winter time (UTC+1).
const MONDAY_0700 = at('2026-11-23T07:00:00+01:00');

function input(overrides: Partial<AvailabilityInput> = {}): AvailabilityInput {
  return { type: checkUp, windows: weekdays, blockedDates: [], bookings: new Map(), now: MONDAY_0700, ...overrides };
}

const ALL_TIMES_20 = [
  '08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40',
  '11:00', '11:20', '11:40', '12:00', '12:20', '12:40', '13:00', '13:20',
];

describe('candidate times', () => {
  it('steps through the window by the duration: 16 times of 20 minutes in 08:20–13:40', () => {
    expect(candidateTimes(weekdays, 1, 20)).toEqual(ALL_TIMES_20);
  });

  it('keeps the last slot that still fits and drops one that would overrun the window', () => {
    // 13:20 + 20 = 13:40 ends exactly at closing: kept.
    expect(candidateTimes(weekdays, 1, 20).at(-1)).toBe('13:20');
    // 30-minute slots: 12:50 ends 13:20 (kept), 13:20 would end 13:50 (dropped).
    expect(candidateTimes(weekdays, 1, 30).at(-1)).toBe('12:50');
    // A window shorter than the duration gives nothing.
    expect(candidateTimes([{ dayOfWeek: 1, startTime: '09:00', endTime: '09:25' }], 1, 30)).toEqual([]);
  });

  it('handles several windows on one day and does not duplicate overlapping starts', () => {
    const split: WeeklyWindow[] = [
      { dayOfWeek: 2, startTime: '15:00', endTime: '16:00' },
      { dayOfWeek: 2, startTime: '08:00', endTime: '09:00' },
      { dayOfWeek: 2, startTime: '08:30', endTime: '09:30' },
    ];
    expect(candidateTimes(split, 2, 30)).toEqual(['08:00', '08:30', '09:00', '15:00', '15:30']);
  });

  it('gives nothing for a weekday without windows', () => {
    expect(candidateTimes(weekdays, 6, 20)).toEqual([]);
    expect(candidateTimes(weekdays, 0, 20)).toEqual([]);
  });
});

describe('selectable dates', () => {
  const today = '2026-11-23'; // Monday
  const none = new Set<string>();

  it('refuses past dates', () => {
    expect(dateRejection('2026-11-22', today, checkUp, weekdays, none)).toBe('past');
    expect(dateRejection('2025-12-31', today, checkUp, weekdays, none)).toBe('past');
  });

  it('offers a same-day-only type today and on no other day', () => {
    expect(dateRejection(today, today, acute, weekdays, none)).toBeNull();
    expect(dateRejection('2026-11-24', today, acute, weekdays, none)).toBe('not-today');
  });

  it('keeps to the advance limit: today + 14 days is the last date', () => {
    // 2026-12-07 is a Monday, 14 days ahead; 2026-12-08 is 15 days ahead.
    expect(dateRejection('2026-12-07', today, checkUp, weekdays, none)).toBeNull();
    expect(dateRejection('2026-12-08', today, checkUp, weekdays, none)).toBe('beyond-advance');
    const oneDay = { ...checkUp, maxAdvanceDays: 1 };
    expect(dateRejection('2026-11-24', today, oneDay, weekdays, none)).toBeNull();
    expect(dateRejection('2026-11-25', today, oneDay, weekdays, none)).toBe('beyond-advance');
  });

  it('refuses blocked dates', () => {
    expect(dateRejection('2026-11-24', today, checkUp, weekdays, new Set(['2026-11-24']))).toBe('blocked');
  });

  it('refuses a weekday without windows', () => {
    expect(dateRejection('2026-11-28', today, checkUp, weekdays, none)).toBe('no-window'); // Saturday
    expect(dateRejection('2026-11-29', today, checkUp, weekdays, none)).toBe('no-window'); // Sunday
  });

  it('crosses the year end on the calendar', () => {
    const now = at('2026-12-28T09:00:00+01:00'); // Monday
    const days = availabilityForRange('2026-12-28', '2027-01-08', input({ now }));
    expect(days.map((d) => d.date)).toEqual([
      '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01',
      '2027-01-04', '2027-01-05', '2027-01-06', '2027-01-07', '2027-01-08',
    ]);
  });
});

describe('free times today', () => {
  it('before opening, every time of today is free', () => {
    expect(freeTimes('2026-11-23', input())).toEqual(ALL_TIMES_20);
  });

  it('drops times not later than now', () => {
    const now = at('2026-11-23T10:05:00+01:00');
    expect(freeTimes('2026-11-23', input({ now }))[0]).toBe('10:20');
    // At exactly 10:20 the 10:20 slot is no longer later than now.
    const exact = at('2026-11-23T10:20:00+01:00');
    expect(freeTimes('2026-11-23', input({ now: exact }))[0]).toBe('10:40');
    // Other dates are not affected by the time of day.
    expect(freeTimes('2026-11-24', input({ now }))).toEqual(ALL_TIMES_20);
  });

  it('after closing, today stays selectable with no times left', () => {
    const now = at('2026-11-23T14:00:00+01:00');
    const [first] = availabilityForRange('2026-11-23', '2026-11-24', input({ now }));
    expect(first).toEqual({ date: '2026-11-23', times: [] });
  });
});

describe('capacity', () => {
  it('capacity 1: one booking takes the time', () => {
    const bookings = new Map([[slotKey('2026-11-24', '09:00'), 1]]);
    const times = freeTimes('2026-11-24', input({ bookings }));
    expect(times).not.toContain('09:00');
    expect(times).toHaveLength(15);
    expect(timeRejection('2026-11-24', '09:00', input({ bookings }))).toBe('full');
  });

  it('capacity 3: the time stays free until the third booking', () => {
    const type = { ...checkUp, maxSlotsPerTime: 3 };
    const two = new Map([[slotKey('2026-11-24', '09:00'), 2]]);
    const three = new Map([[slotKey('2026-11-24', '09:00'), 3]]);
    expect(freeTimes('2026-11-24', input({ type, bookings: two }))).toContain('09:00');
    expect(timeRejection('2026-11-24', '09:00', input({ type, bookings: two }))).toBeNull();
    expect(freeTimes('2026-11-24', input({ type, bookings: three }))).not.toContain('09:00');
    expect(timeRejection('2026-11-24', '09:00', input({ type, bookings: three }))).toBe('full');
  });

  it('a booking on another date or time does not count', () => {
    const bookings = new Map([[slotKey('2026-11-25', '09:00'), 1]]);
    expect(freeTimes('2026-11-24', input({ bookings }))).toContain('09:00');
  });
});

describe('a booking re-check (timeRejection)', () => {
  it.each([
    ['a free time', '2026-11-24', '09:00', null],
    ['a time between slots', '2026-11-24', '09:10', 'not-a-slot'],
    ['a time after the last slot', '2026-11-24', '13:40', 'not-a-slot'],
    ['a past date', '2026-11-20', '09:00', 'past'],
    ['a Saturday', '2026-11-28', '09:00', 'no-window'],
    ['beyond the advance limit', '2026-12-08', '09:00', 'beyond-advance'],
  ] as const)('%s', (_label, date, time, expected) => {
    expect(timeRejection(date, time, input())).toBe(expected);
  });

  it('refuses a time of today that has passed', () => {
    const now = at('2026-11-23T10:05:00+01:00');
    expect(timeRejection('2026-11-23', '10:00', input({ now }))).toBe('passed');
    expect(timeRejection('2026-11-23', '10:20', input({ now }))).toBeNull();
  });

  it('refuses a blocked date', () => {
    expect(timeRejection('2026-11-24', '09:00', input({ blockedDates: ['2026-11-24'] }))).toBe('blocked');
  });

  it('refuses a closed day (a public holiday) as `holiday`, named only when nothing else stands in the way', () => {
    // Christmas Day 2026 (a Friday), seen from Friday 18 December.
    const now = at('2026-12-18T08:00:00+01:00');
    expect(timeRejection('2026-12-25', '09:00', input({ now, closedDates: ['2026-12-25'] }))).toBe('holiday');
    // Staff confirming the day book it only when it is otherwise bookable: these reasons come first.
    expect(timeRejection('2026-12-25', '09:10', input({ now, closedDates: ['2026-12-25'] }))).toBe('not-a-slot');
    expect(timeRejection('2026-12-25', '09:00', input({ now, closedDates: ['2026-12-25'], blockedDates: ['2026-12-25'] }))).toBe('blocked');
    expect(timeRejection('2026-12-25', '09:00', input({ now, closedDates: ['2026-12-25'], bookings: new Map([['2026-12-25 09:00', 1]]) }))).toBe('full');
    // Without the closed day (staff confirmed it), the time is bookable.
    expect(timeRejection('2026-12-25', '09:00', input({ now }))).toBeNull();
  });
});

describe('availability for a range', () => {
  it('lists every selectable date with its free times, and nothing else', () => {
    const days = availabilityForRange('2026-11-20', '2026-12-31', input({ blockedDates: ['2026-11-26'] }));
    // From today (not the past), to today + 14, weekdays only, without the blocked Thursday.
    expect(days.map((d) => d.date)).toEqual([
      '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27',
      '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-07',
    ]);
    for (const d of days) expect(d.times).toEqual(ALL_TIMES_20);
  });

  it('leaves out closed days (public holidays) across the year end, and nothing else', () => {
    const now = at('2026-12-21T07:00:00+01:00');
    const days = availabilityForRange('2026-12-21', '2027-01-04', input({ now, closedDates: ['2026-12-25', '2026-12-26', '2027-01-01'] }));
    expect(days.map((d) => d.date)).toEqual(['2026-12-21', '2026-12-22', '2026-12-23', '2026-12-24', '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-04']);
  });

  it('a same-day type lists only today', () => {
    const days = availabilityForRange('2026-11-23', '2026-12-20', input({ type: acute }));
    expect(days).toHaveLength(1);
    expect(days[0]!.date).toBe('2026-11-23');
    expect(days[0]!.times).toHaveLength(32);
  });
});

describe('first selectable date', () => {
  it('moves from a weekend to the next weekday', () => {
    const saturday = at('2026-11-28T09:00:00+01:00');
    expect(firstSelectableDate('2026-11-28', saturday, checkUp, weekdays, [])).toBe('2026-11-30');
  });

  it('skips blocked days and starts at today when asked for the past', () => {
    expect(firstSelectableDate('2026-01-01', MONDAY_0700, checkUp, weekdays, ['2026-11-23', '2026-11-24'])).toBe(
      '2026-11-25',
    );
  });

  it('is null when nothing is selectable within the advance limit or without windows', () => {
    const saturday = at('2026-11-28T09:00:00+01:00');
    expect(firstSelectableDate('2026-11-28', saturday, acute, weekdays, [])).toBeNull();
    expect(firstSelectableDate('2026-11-23', MONDAY_0700, { ...checkUp, maxAdvanceDays: 365 }, [], [])).toBeNull();
  });
});

describe('daylight-saving change days', () => {
  // Both EU changes fall on a Sunday; give the type Sunday windows around the change.
  const sundays: WeeklyWindow[] = [
    { dayOfWeek: 0, startTime: '01:00', endTime: '04:00' },
    { dayOfWeek: 0, startTime: '08:00', endTime: '12:00' },
  ];
  const type = { maxAdvanceDays: 30, slotDurationMinutes: 30, maxSlotsPerTime: 1 };

  it('spring forward (29 March 2026): the skipped hour offers no time, every other time is unshifted', () => {
    const now = at('2026-03-20T12:00:00+01:00');
    const times = freeTimes('2026-03-29', { type, windows: sundays, blockedDates: [], bookings: new Map(), now });
    expect(times).toEqual([
      '01:00', '01:30', '03:00', '03:30',
      '08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '11:30',
    ]);
  });

  it('fall back (25 October 2026): the repeated hour offers each time once', () => {
    const now = at('2026-10-20T12:00:00+02:00');
    const times = freeTimes('2026-10-25', { type, windows: sundays, blockedDates: [], bookings: new Map(), now });
    expect(times).toEqual([
      '01:00', '01:30', '02:00', '02:30', '03:00', '03:30',
      '08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '11:30',
    ]);
  });

  it('in the repeated hour\'s second pass, its times stay gone: they began at their first instant, as the back office counts them', () => {
    // 31 October 2027, 02:30 winter time (01:30 UTC): 02:40 first came at 00:40 UTC, in summer time.
    const now = new Date('2027-10-31T01:30:00Z');
    const sundayNight: WeeklyWindow[] = [{ dayOfWeek: 0, startTime: '00:00', endTime: '04:00' }];
    const five: TypeRules = { maxAdvanceDays: 30, slotDurationMinutes: 5, maxSlotsPerTime: 1 };
    const night = { type: five, windows: sundayNight, blockedDates: [], bookings: new Map(), now };
    const times = freeTimes('2027-10-31', night);
    expect(times[0]).toBe('03:00');
    expect(timeRejection('2027-10-31', '02:40', night)).toBe('passed');
    expect(timeRejection('2027-10-31', '03:00', night)).toBeNull();
    // Every time offered is still ahead by the instant it begins at.
    for (const time of times) expect(berlinInstant('2027-10-31', time)!.getTime()).toBeGreaterThan(now.getTime());
    // In the first pass (02:30 summer time) the rest of the hour is still ahead.
    const firstPass = { ...night, now: new Date('2027-10-31T00:30:00Z') };
    expect(freeTimes('2027-10-31', firstPass)[0]).toBe('02:35');
  });

  it('"now" on the change days is Berlin summer or winter time, not a fixed offset', () => {
    // 07:30 UTC is 09:30 in Berlin after the spring change (UTC+2), not 08:30.
    const spring = new Date('2026-03-29T07:30:00Z');
    const springTimes = freeTimes('2026-03-29', { type, windows: sundays, blockedDates: [], bookings: new Map(), now: spring });
    expect(springTimes[0]).toBe('10:00');
    // 08:30 UTC is 09:30 in Berlin after the autumn change (UTC+1), not 10:30.
    const autumn = new Date('2026-10-25T08:30:00Z');
    const autumnTimes = freeTimes('2026-10-25', { type, windows: sundays, blockedDates: [], bookings: new Map(), now: autumn });
    expect(autumnTimes[0]).toBe('10:00');
  });

  it.each([
    ['2026-03-29', true],
    ['2026-10-25', true],
    ['2027-03-28', true],
    ['2027-10-31', true],
    ['2026-03-28', false],
    ['2026-03-30', false],
    ['2026-10-24', false],
    ['2026-11-23', false],
    ['2026-07-01', false],
  ])('knows whether %s is a clock-change day (%s)', (date, expected) => {
    expect(isOffsetChangeDay(date)).toBe(expected);
  });

  it('maps wall times of the change days to the right instants', () => {
    expect(berlinInstant('2026-03-29', '02:30')).toBeNull();
    expect(berlinInstant('2026-03-29', '03:00')?.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(berlinInstant('2026-10-25', '02:30')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(berlinInstant('2026-10-25', '03:00')?.toISOString()).toBe('2026-10-25T02:00:00.000Z');
  });
});

describe.each(['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Asia/Kolkata', 'Europe/Berlin'])(
  'on a server running in %s',
  (zone) => {
    const original = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = zone;
    });
    afterAll(() => {
      process.env.TZ = original;
    });

    it('the host zone is really in effect', () => {
      const offset = new Date('2026-01-15T12:00:00Z').getTimezoneOffset();
      const expected = { UTC: 0, 'America/Los_Angeles': 480, 'Pacific/Kiritimati': -840, 'Asia/Kolkata': -330, 'Europe/Berlin': -60 }[zone];
      expect(offset).toBe(expected);
    });

    it('today and now are Berlin\'s, also around midnight', () => {
      // 23:30 UTC on Monday is already Tuesday 00:30 in Berlin.
      const lateMonday = new Date('2026-11-23T23:30:00Z');
      expect(berlinToday(lateMonday)).toBe('2026-11-24');
      expect(berlinWallClock(lateMonday)).toEqual({ date: '2026-11-24', time: '00:30' });
      const days = availabilityForRange('2026-11-23', '2026-11-25', input({ now: lateMonday }));
      expect(days.map((d) => d.date)).toEqual(['2026-11-24', '2026-11-25']);
      expect(days[0]!.times).toEqual(ALL_TIMES_20);
    });

    it('drops the same times of today as in Berlin', () => {
      const now = new Date('2026-11-23T09:05:00Z'); // 10:05 in Berlin
      expect(freeTimes('2026-11-23', input({ now }))[0]).toBe('10:20');
      expect(timeRejection('2026-11-23', '10:00', input({ now }))).toBe('passed');
    });

    it('the weekday of a date does not depend on the host zone', () => {
      expect(availabilityForRange('2026-11-28', '2026-11-30', input()).map((d) => d.date)).toEqual(['2026-11-30']);
    });
  },
);

describe('partial-day blocks (time ranges)', () => {
  const meeting = { date: '2026-11-24', startTime: '10:00:00', endTime: '12:00:00' };

  it('removes every time whose appointment overlaps the range, and only those', () => {
    const times = freeTimes('2026-11-24', input({ blockedRanges: [meeting] }));
    // 09:40–10:00 ends as the range begins and 12:00 starts as it ends: both stay.
    expect(times).toEqual(ALL_TIMES_20.filter((t) => t < '10:00' || t >= '12:00'));
  });

  it('blocks a time that starts before the range but runs into it', () => {
    const times = freeTimes('2026-11-24', input({ blockedRanges: [{ date: '2026-11-24', startTime: '10:10', endTime: '10:15' }] }));
    expect(times).not.toContain('10:00');
    expect(times).toContain('09:40');
    expect(times).toContain('10:20');
  });

  it('leaves other dates alone and keeps the date selectable', () => {
    const days = availabilityForRange('2026-11-24', '2026-11-25', input({ blockedRanges: [meeting] }));
    expect(days.map((d) => d.date)).toEqual(['2026-11-24', '2026-11-25']);
    expect(days[1]!.times).toEqual(ALL_TIMES_20);
  });

  it('the re-check refuses a time in the range as blocked', () => {
    expect(timeRejection('2026-11-24', '10:40', input({ blockedRanges: [meeting] }))).toBe('blocked');
    expect(timeRejection('2026-11-24', '09:40', input({ blockedRanges: [meeting] }))).toBeNull();
    expect(timeRejection('2026-11-24', '12:00', input({ blockedRanges: [meeting] }))).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  blocksOn,
  bookedCounters,
  dayList,
  filterBookedSlots,
  filterInventory,
  groupByMonth,
  groupWindows,
  inBlock,
  patientNames,
  inventorySummary,
  isPastDate,
  mondayOf,
  nextDaysWithWindows,
  remainingToday,
  weekDates,
  type BlockLike,
} from './views';

describe('groupWindows', () => {
  it('groups by type name and weekday, Monday first and Sunday last, each day by start time; types without windows stay', () => {
    const types = [
      { id: 'b', name: 'Impfung' },
      { id: 'a', name: 'Check-up' },
      { id: 'c', name: 'Leer' },
    ];
    const windows = [
      { id: 1, appointment_type_id: 'a', day_of_week: 0, start_time: '10:00' },
      { id: 2, appointment_type_id: 'a', day_of_week: 1, start_time: '14:00' },
      { id: 3, appointment_type_id: 'a', day_of_week: 1, start_time: '08:20' },
      { id: 4, appointment_type_id: 'b', day_of_week: 6, start_time: '09:00' },
      { id: 5, appointment_type_id: 'a', day_of_week: 3, start_time: '09:00' },
    ];
    const groups = groupWindows(windows, types);
    expect(groups.map((g) => g.typeName)).toEqual(['Check-up', 'Impfung', 'Leer']);
    expect(groups[0]!.days.map((d) => [d.dayOfWeek, d.windows.map((w) => w.id)])).toEqual([
      [1, [3, 2]],
      [3, [5]],
      [0, [1]],
    ]);
    expect(groups[2]!.days).toEqual([]);
  });
});

describe('groupByMonth', () => {
  it('groups newest month first, across a year end', () => {
    const groups = groupByMonth([{ date: '2026-12-24' }, { date: '2027-01-02' }, { date: '2026-12-31' }, { date: '2026-11-01' }]);
    expect(groups.map((g) => [g.month, g.items.map((i) => i.date)])).toEqual([
      ['2027-01', ['2027-01-02']],
      ['2026-12', ['2026-12-31', '2026-12-24']],
      ['2026-11', ['2026-11-01']],
    ]);
  });

  it('a date before today is past, today itself is not', () => {
    expect(isPastDate('2026-11-22', '2026-11-23')).toBe(true);
    expect(isPastDate('2026-11-23', '2026-11-23')).toBe(false);
  });
});

describe('booked slots', () => {
  const slots = [
    { type_name: 'Impfung', appointment_date: '2026-11-24', appointment_time: '09:00' },
    { type_name: 'Check-up', appointment_date: '2026-11-23', appointment_time: '10:00' },
    { type_name: 'Check-up', appointment_date: '2026-11-23', appointment_time: '08:40' },
    { type_name: 'Reisemedizinische Beratung', appointment_date: '2026-11-30', appointment_time: '08:20' },
  ];

  it('sorts by date then time, searches the type name case-insensitively and filters by date', () => {
    expect(filterBookedSlots(slots, '', '').map((s) => `${s.appointment_date} ${s.appointment_time}`)).toEqual([
      '2026-11-23 08:40',
      '2026-11-23 10:00',
      '2026-11-24 09:00',
      '2026-11-30 08:20',
    ]);
    expect(filterBookedSlots(slots, '  check ', '').map((s) => s.appointment_time)).toEqual(['08:40', '10:00']);
    expect(filterBookedSlots(slots, '', '2026-11-24')).toHaveLength(1);
    expect(filterBookedSlots(slots, 'impf', '2026-11-23')).toEqual([]);
  });

  it('counts shown slots, today among them and distinct days', () => {
    expect(bookedCounters(slots, '2026-11-23')).toEqual({ shown: 4, cancelled: 0, today: 2, days: 3 });
    expect(bookedCounters(filterBookedSlots(slots, 'impf', ''), '2026-11-23')).toEqual({ shown: 1, cancelled: 0, today: 0, days: 1 });
  });

  it('counts every shown row, a struck-through cancellation too, and says how many are cancelled', () => {
    const day = [
      { appointment_date: '2026-11-23', appointment_time: '09:00', type_name: 'A', status: 'booked' },
      { appointment_date: '2026-11-23', appointment_time: '09:20', type_name: 'A', status: 'cancelled_by_practice' },
      { appointment_date: '2026-11-24', appointment_time: '09:00', type_name: 'A', status: 'cancelled_by_practice' },
    ];
    expect(bookedCounters(day, '2026-11-23')).toEqual({ shown: 3, cancelled: 2, today: 1, days: 1 });
  });
});

describe('inventory filters', () => {
  const items = [
    { name: 'a', current_stock: 1, minimum_stock: 5, is_ordered: false, expiry_date: null },
    { name: 'b', current_stock: 1, minimum_stock: 5, is_ordered: true, expiry_date: '2026-12-01' },
    { name: 'c', current_stock: 9, minimum_stock: 5, is_ordered: false, expiry_date: '2027-06-01' },
    { name: 'd', current_stock: 9, minimum_stock: 5, is_ordered: false, expiry_date: '2026-11-23' },
  ];
  it('counts low stock, expiring soon and reorder needs; filters accordingly', () => {
    expect(inventorySummary(items, '2026-11-23')).toEqual({ lowStock: 2, expiring: 2, reorder: 1 });
    expect(filterInventory(items, 'low-stock', '2026-11-23').map((i) => i.name)).toEqual(['a', 'b']);
    expect(filterInventory(items, 'expiring', '2026-11-23').map((i) => i.name)).toEqual(['b', 'd']);
    expect(filterInventory(items, 'all', '2026-11-23')).toHaveLength(4);
  });
});

describe('dayList', () => {
  const slot = (appointment_date: string, appointment_time: string, type_name: string) => ({ appointment_date, appointment_time, type_name });
  it('keeps only the date, in time order, two at one time by type name', () => {
    const slots = [
      slot('2030-01-08', '10:00', 'Impfung'),
      slot('2030-01-07', '08:20', 'Check-up'),
      slot('2030-01-08', '08:20', 'Impfung'),
      slot('2030-01-08', '08:20', 'Check-up'),
      slot('2030-01-09', '07:00', 'Check-up'),
    ];
    expect(dayList(slots, '2030-01-08')).toEqual([
      slot('2030-01-08', '08:20', 'Check-up'),
      slot('2030-01-08', '08:20', 'Impfung'),
      slot('2030-01-08', '10:00', 'Impfung'),
    ]);
    expect(dayList(slots, '2030-01-10')).toEqual([]);
  });
});

describe("the day list's default days: the next two with time windows", () => {
  // Monday to Friday (1–5; 0 is Sunday), as most practices keep them.
  const weekdays = [1, 2, 3, 4, 5].map((day_of_week) => ({ day_of_week }));

  it.each([
    ['a Tuesday: today and tomorrow', '2026-11-24', ['2026-11-24', '2026-11-25']],
    ['a Friday: Friday and Monday, not the empty Saturday', '2026-11-27', ['2026-11-27', '2026-11-30']],
    ['a Saturday: Monday and Tuesday', '2026-11-28', ['2026-11-30', '2026-12-01']],
    ['a Sunday: Monday and Tuesday', '2026-11-29', ['2026-11-30', '2026-12-01']],
    ['New Year\'s Eve on a Thursday: into the next year', '2026-12-31', ['2026-12-31', '2027-01-01']],
    ['the Friday of the autumn clock change week', '2026-10-23', ['2026-10-23', '2026-10-26']],
  ])('%s', (_what, today, expected) => {
    expect(nextDaysWithWindows(today, weekdays)).toEqual(expected);
  });

  it('a Saturday surgery counts as a day with windows', () => {
    expect(nextDaysWithWindows('2026-11-27', [...weekdays, { day_of_week: 6 }])).toEqual(['2026-11-27', '2026-11-28']);
  });

  it('without any window: today and tomorrow', () => {
    expect(nextDaysWithWindows('2026-11-28', [])).toEqual(['2026-11-28', '2026-11-29']);
  });
});

describe('weeks and blocks of the week view and the day list', () => {
  it('a week runs Monday to Sunday, across a month and a year end', () => {
    expect(mondayOf('2026-11-24')).toBe('2026-11-23');
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
    expect(weekDates('2026-12-28')).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03']);
    // Across the autumn clock change: still seven calendar days.
    expect(weekDates(mondayOf('2026-10-25'))).toHaveLength(7);
    expect(weekDates(mondayOf('2026-10-25')).at(-1)).toBe('2026-10-25');
  });

  const block = (over: Partial<BlockLike>): BlockLike => ({ date: '2030-01-08', appointment_type_id: null, start_time: null, end_time: null, ...over });

  it('finds the blocks of a date, a range of days included, whole days first', () => {
    const partial = block({ start_time: '10:00', end_time: '12:00' });
    const whole = block({});
    const range = block({ date: '2030-01-07', end_date: '2030-01-09' });
    const other = block({ date: '2030-01-09' });
    expect(blocksOn([partial, other, whole, range], '2030-01-08')).toEqual([whole, range, partial]);
    expect(blocksOn([partial, other, whole, range], '2030-01-10')).toEqual([]);
  });

  it('marks a booking a block covers: the whole day, or an overlap of its duration, for its type or all', () => {
    const slot = (time: string, type = 't1') => ({ appointment_type_id: type, appointment_time: time });
    const morning = [block({ start_time: '10:00', end_time: '12:00', appointment_type_id: 't1' })];
    expect(inBlock(slot('09:40'), morning, 20)).toBe(false);
    expect(inBlock(slot('09:50'), morning, 20)).toBe(true);
    expect(inBlock(slot('11:40'), morning, 20)).toBe(true);
    expect(inBlock(slot('12:00'), morning, 20)).toBe(false);
    expect(inBlock(slot('10:00', 't2'), morning, 20)).toBe(false);
    expect(inBlock(slot('17:00', 't2'), [block({})], 20)).toBe(true);
  });
});

describe('remainingToday', () => {
  it("keeps today's appointments that have not ended, in time order, without practice cancellations", () => {
    const slot = (id: string, date: string, time: string, status?: string) => ({ id, appointment_type_id: 't', type_name: 'Check-up', appointment_date: date, appointment_time: time, status });
    const durations = new Map([['t', 20]]);
    const slots = [
      slot('later', '2030-01-08', '11:00'),
      slot('running', '2030-01-08', '09:50'),
      slot('over', '2030-01-08', '09:30'),
      slot('tomorrow', '2030-01-09', '08:00'),
      slot('cancelled', '2030-01-08', '10:40', 'cancelled_by_practice'),
    ];
    expect(remainingToday(slots, durations, '2030-01-08', '09:50').map((s) => s.id)).toEqual(['running', 'later']);
    expect(remainingToday(slots, durations, '2030-01-08', '11:20')).toEqual([]);
  });
});

describe('patientNames (docs/decisions/025)', () => {
  const text = { unreadable: 'nicht lesbar', none: 'kein Name gespeichert', born: (d: string) => `geb. ${d}` };
  const row = (first: string, last: string, birth: string | null) => ({ patient: { first_name: first, last_name: last, birth_date: birth }, patient_state: 'present' as const });
  it('shows "Nachname, Vorname", the birth date only where two names of the list match, and says why a name is missing', () => {
    const a = row('Anna', 'Müller', '1950-02-14');
    const b = row('anna', 'müller', '1988-09-01');
    const c = row('Jürgen', 'Müller', null);
    const unreadable = { patient: null, patient_state: 'unreadable' as const };
    const none = { patient: null, patient_state: 'none' as const };
    const names = patientNames([a, b, c, unreadable, none], text);
    expect([a, b, c, unreadable, none].map((s) => names.get(s))).toEqual([
      'Müller, Anna (geb. 14.02.1950)',
      'müller, anna (geb. 01.09.1988)',
      'Müller, Jürgen',
      'nicht lesbar',
      'kein Name gespeichert',
    ]);
  });
});

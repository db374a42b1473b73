/**
 * NRW's public holidays from the library, across several years (Easter
 * falls between 22 March and 25 April, so every Easter-dependent holiday
 * moves), the days NRW does not keep (Reformationstag, Buß- und Bettag,
 * Heilige Drei Könige), year ends, an opened holiday and the 24/31
 * December switches (docs/decisions/039-public-holidays.md).
 */
import { describe, expect, it } from 'vitest';
import { addDaysToDate } from './berlin-time';
import {
  closedDayOn,
  closedDaysBetween,
  closingRuleOf,
  DEFAULT_HOLIDAY_SETTINGS,
  holidaysBetween,
  holidayStateOn,
  publicHolidayOn,
  publicHolidaysOf,
  type HolidaySettings,
} from './holidays';

/** Easter Sunday and the holidays that follow it, per year (Karfreitag −2, Ostermontag +1, Christi Himmelfahrt +39, Pfingstmontag +50, Fronleichnam +60). */
const EASTER_DEPENDENT: Record<number, [karfreitag: string, ostermontag: string, himmelfahrt: string, pfingstmontag: string, fronleichnam: string]> = {
  2025: ['2025-04-18', '2025-04-21', '2025-05-29', '2025-06-09', '2025-06-19'],
  2026: ['2026-04-03', '2026-04-06', '2026-05-14', '2026-05-25', '2026-06-04'],
  // Early Easter (28 March): Karfreitag in March, Fronleichnam in May.
  2027: ['2027-03-26', '2027-03-29', '2027-05-06', '2027-05-17', '2027-05-27'],
  2028: ['2028-04-14', '2028-04-17', '2028-05-25', '2028-06-05', '2028-06-15'],
  // Easter on 1 April: Karfreitag falls in the month before.
  2029: ['2029-03-30', '2029-04-02', '2029-05-10', '2029-05-21', '2029-05-31'],
  // Late Easter (21 April): Fronleichnam on 20 June.
  2030: ['2030-04-19', '2030-04-22', '2030-05-30', '2030-06-10', '2030-06-20'],
};
const EASTER_NAMES = ['Karfreitag', 'Ostermontag', 'Christi Himmelfahrt', 'Pfingstmontag', 'Fronleichnam'];

describe.each(Object.entries(EASTER_DEPENDENT))('NRW public holidays of %s', (yearText, easter) => {
  const year = Number(yearText);

  it('are the eleven of NRW, in date order, with German and English names', () => {
    const holidays = [...publicHolidaysOf(year).values()];
    expect(holidays.map((h) => h.date)).toEqual([
      `${year}-01-01`,
      easter[0],
      easter[1],
      `${year}-05-01`,
      easter[2],
      easter[3],
      easter[4],
      `${year}-10-03`,
      `${year}-11-01`,
      `${year}-12-25`,
      `${year}-12-26`,
    ]);
    expect(holidays.map((h) => h.name)).toEqual([
      'Neujahrstag',
      ...EASTER_NAMES.slice(0, 2),
      'Tag der Arbeit',
      ...EASTER_NAMES.slice(2),
      'Tag der Deutschen Einheit',
      'Allerheiligen',
      '1. Weihnachtstag',
      '2. Weihnachtstag',
    ]);
    expect(publicHolidayOn(`${year}-12-25`)).toEqual({ date: `${year}-12-25`, name: '1. Weihnachtstag', name_en: 'Christmas Day' });
    expect(publicHolidayOn(easter[4])?.name_en).toBe('Corpus Christi');
  });

  it('never include what NRW does not keep: Easter and Whit Sunday, Reformationstag, Buß- und Bettag, Heilige Drei Könige, Mariä Himmelfahrt', () => {
    for (const date of [`${year}-10-31`, `${year}-01-06`, `${year}-08-15`, `${year}-03-08`, `${year}-09-20`]) expect(publicHolidayOn(date), date).toBeNull();
    // Easter and Whit Sunday are Sundays, not holidays here.
    expect(publicHolidayOn(addDaysToDate(easter[1], -1))).toBeNull();
    expect(publicHolidayOn(addDaysToDate(easter[3], -1))).toBeNull();
    // Buß- und Bettag: the Wednesday before 23 November.
    for (let day = 16; day <= 22; day++) expect(publicHolidayOn(`${year}-11-${day}`)).toBeNull();
  });
});

describe('closed days', () => {
  const opened = (dates: string[], more: Partial<HolidaySettings> = {}): HolidaySettings => ({ ...DEFAULT_HOLIDAY_SETTINGS, opened: dates, ...more });

  it('close every public holiday by default, and Christmas Day 2026 (the defect: ten times offered)', () => {
    expect(closedDayOn('2026-12-25', DEFAULT_HOLIDAY_SETTINGS)).toEqual({ date: '2026-12-25', name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true });
    expect(closedDayOn('2026-12-23', DEFAULT_HOLIDAY_SETTINGS)).toBeNull();
  });

  it('across the year end: 24 and 31 December open by default, 25/26 December and 1 January closed', () => {
    expect(closedDaysBetween('2026-12-20', '2027-01-03', DEFAULT_HOLIDAY_SETTINGS).map((d) => `${d.date} ${d.name}`)).toEqual([
      '2026-12-25 1. Weihnachtstag',
      '2026-12-26 2. Weihnachtstag',
      '2027-01-01 Neujahrstag',
    ]);
  });

  it('the 24/31 December switches close those days, each on its own, every year', () => {
    const both = opened([], { closeDec24: true, closeDec31: true });
    expect(closedDaysBetween('2027-12-20', '2028-01-02', both).map((d) => `${d.date} ${d.name} ${d.statutory}`)).toEqual([
      '2027-12-24 Heiligabend false',
      '2027-12-25 1. Weihnachtstag true',
      '2027-12-26 2. Weihnachtstag true',
      '2027-12-31 Silvester false',
      '2028-01-01 Neujahrstag true',
    ]);
    expect(closedDayOn('2030-12-24', opened([], { closeDec24: true }))?.name_en).toBe('Christmas Eve');
    expect(closedDayOn('2030-12-31', opened([], { closeDec24: true }))).toBeNull();
    expect(closedDayOn('2030-12-31', opened([], { closeDec31: true }))?.name_en).toBe("New Year's Eve");
    expect(closedDayOn('2030-12-24', opened([], { closeDec31: true }))).toBeNull();
    // Neither switch closes any other day.
    expect(closedDaysBetween('2030-01-02', '2030-03-31', both)).toEqual([]);
  });

  it('an opened holiday (an emergency service) is open that year only; it stays a holiday for staff', () => {
    const settings = opened(['2026-12-26']);
    expect(closedDayOn('2026-12-26', settings)).toBeNull();
    expect(closedDayOn('2027-12-26', settings)?.name).toBe('2. Weihnachtstag');
    expect(holidayStateOn('2026-12-26', settings)).toEqual({ date: '2026-12-26', name: '2. Weihnachtstag', name_en: 'Boxing Day', statutory: true, closed: false });
    expect(holidaysBetween('2026-12-24', '2026-12-31', settings).map((d) => `${d.date} ${d.closed ? 'zu' : 'offen'}`)).toEqual(['2026-12-25 zu', '2026-12-26 offen']);
    // Opening a day that is no holiday changes nothing.
    expect(closedDayOn('2026-12-23', opened(['2026-12-23']))).toBeNull();
  });

  it('an Easter-dependent holiday is closed on its date of each year only', () => {
    // Fronleichnam 2027 is 27 May; 27 May 2026 is an ordinary Wednesday.
    expect(closedDayOn('2027-05-27', DEFAULT_HOLIDAY_SETTINGS)?.name).toBe('Fronleichnam');
    expect(closedDayOn('2026-05-27', DEFAULT_HOLIDAY_SETTINGS)).toBeNull();
    expect(closedDaysBetween('2028-04-10', '2028-04-20', DEFAULT_HOLIDAY_SETTINGS).map((d) => d.name)).toEqual(['Karfreitag', 'Ostermontag']);
  });

  it('names which rule may close a day, for the booking statement to read the setting it needs', () => {
    expect(closingRuleOf('2029-05-10')).toBe('public-holiday');
    expect(closingRuleOf('2029-12-24')).toBe('closeDec24');
    expect(closingRuleOf('2029-12-31')).toBe('closeDec31');
    expect(closingRuleOf('2029-10-31')).toBeNull();
  });
});

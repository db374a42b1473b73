/**
 * The practice's closed days: North Rhine-Westphalia's public holidays,
 * computed by a maintained library (feiertagejs, region NW), never a list
 * written by hand, and the two days the practice may close besides
 * (24 and 31 December). What the practice has opened (an emergency service
 * on a holiday) is open. Dates are Berlin wall-clock `yyyy-MM-dd`, like
 * every date (docs/architecture.md, Time; docs/decisions/039-public-holidays.md).
 *
 * Server-side only in effect: the patient's wizard learns the closed days
 * from GET /api/availability and never loads this module (the layer check
 * keeps feiertagejs out of every island, .dependency-cruiser.cjs).
 */
import { getHolidays } from 'feiertagejs';

/** The practice's state: Nordrhein-Westfalen. */
export const PRACTICE_REGION = 'NW';

export interface PublicHoliday {
  /** yyyy-MM-dd */
  date: string;
  /** German name, as staff see it ("1. Weihnachtstag"). */
  name: string;
  /** English name, for the English wizard ("Christmas Day"). */
  name_en: string;
}

/** What the practice decided (practice_settings): holidays opened, and 24/31 December closed. */
export interface HolidaySettings {
  /** Public holidays (yyyy-MM-dd) the practice opens, e.g. for an emergency service. */
  opened: readonly string[];
  /** Heiligabend closed. */
  closeDec24: boolean;
  /** Silvester closed. */
  closeDec31: boolean;
}

/** Before the practice saved anything: every public holiday closed, 24 and 31 December open. */
export const DEFAULT_HOLIDAY_SETTINGS: HolidaySettings = { opened: [], closeDec24: false, closeDec31: false };

/** A holiday or closed day as the API reports it. */
export interface ClosedDay extends PublicHoliday {
  /** A public holiday (true) or a day the practice closes by its own choice (24 or 31 December). */
  statutory: boolean;
}

/** A day of the calendar that is a holiday or may be closed, and whether it is closed under the settings. */
export interface HolidayState extends ClosedDay {
  closed: boolean;
}

/** The two days the practice may close besides the public holidays (not public holidays in NRW). */
const PRACTICE_DAYS: ReadonlyArray<{ monthDay: string; name: string; name_en: string; setting: 'closeDec24' | 'closeDec31' }> = [
  { monthDay: '12-24', name: 'Heiligabend', name_en: 'Christmas Eve', setting: 'closeDec24' },
  { monthDay: '12-31', name: 'Silvester', name_en: "New Year's Eve", setting: 'closeDec31' },
];

const byYear = new Map<number, ReadonlyMap<string, PublicHoliday>>();

/**
 * NRW's public holidays of a year, by date. The library dates each holiday
 * at noon UTC, which is the same calendar day in Berlin in every season.
 */
export function publicHolidaysOf(year: number): ReadonlyMap<string, PublicHoliday> {
  let holidays = byYear.get(year);
  if (!holidays) {
    holidays = new Map(
      getHolidays(year, PRACTICE_REGION).map((h) => {
        const date = h.date.toISOString().slice(0, 10);
        return [date, { date, name: h.translate('de') ?? h.name, name_en: h.translate('en') ?? h.name }] as const;
      }),
    );
    byYear.set(year, holidays);
  }
  return holidays;
}

/** The public holiday on `date`, or null. */
export function publicHolidayOn(date: string): PublicHoliday | null {
  return publicHolidaysOf(Number(date.slice(0, 4))).get(date) ?? null;
}

/**
 * What `date` is: a public holiday, or 24/31 December (which the practice
 * may close); null for any other day. `closed` says whether bookings are
 * closed under the settings.
 */
export function holidayStateOn(date: string, settings: HolidaySettings): HolidayState | null {
  const holiday = publicHolidayOn(date);
  if (holiday) return { ...holiday, statutory: true, closed: !settings.opened.includes(date) };
  const practiceDay = PRACTICE_DAYS.find((d) => date.endsWith(`-${d.monthDay}`));
  if (practiceDay) return { date, name: practiceDay.name, name_en: practiceDay.name_en, statutory: false, closed: settings[practiceDay.setting] };
  return null;
}

/** The closed day `date` is under the settings, or null when it is open. */
export function closedDayOn(date: string, settings: HolidaySettings): ClosedDay | null {
  const state = holidayStateOn(date, settings);
  if (!state?.closed) return null;
  const { closed: _closed, ...day } = state;
  return day;
}

function* datesOf(from: string, to: string): Generator<string> {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  for (let day = new Date(Date.UTC(y, m - 1, d)); ; day.setUTCDate(day.getUTCDate() + 1)) {
    const date = day.toISOString().slice(0, 10);
    if (date > to) return;
    yield date;
  }
}

/**
 * Every public holiday in [from, to] with whether it is closed, and 24/31
 * December where the practice closes them: the staff views and the
 * settings page.
 */
export function holidaysBetween(from: string, to: string, settings: HolidaySettings): HolidayState[] {
  const days: HolidayState[] = [];
  for (const date of datesOf(from, to)) {
    const state = holidayStateOn(date, settings);
    if (state && (state.statutory || state.closed)) days.push(state);
  }
  return days;
}

/** The closed days in [from, to]: what no patient may book. */
export function closedDaysBetween(from: string, to: string, settings: HolidaySettings): ClosedDay[] {
  return holidaysBetween(from, to, settings)
    .filter((d) => d.closed)
    .map(({ closed: _closed, ...day }) => day);
}

/** Which rule may close `date`: a public holiday, one of the two December days, or none. */
export function closingRuleOf(date: string): 'public-holiday' | 'closeDec24' | 'closeDec31' | null {
  if (publicHolidayOn(date)) return 'public-holiday';
  return PRACTICE_DAYS.find((d) => date.endsWith(`-${d.monthDay}`))?.setting ?? null;
}

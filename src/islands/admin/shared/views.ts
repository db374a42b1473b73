/**
 * Pure shaping of the admin lists for display: grouping, filters and
 * counters. No React, no fetch, so it is
 * tested with plain data.
 */
import { addDaysToDate, weekdayOf } from '../../../lib/berlin-time';
import { isExpiringSoon, needsReorder, isLowStock, type StockLevels } from '../../../lib/inventory';

/** Weekdays as stored (0 = Sunday) in display order: Monday first. */
export const WEEKDAYS_MONDAY_FIRST = [1, 2, 3, 4, 5, 6, 0] as const;

export interface WindowLike {
  appointment_type_id: string;
  day_of_week: number;
  start_time: string;
}

export interface TypeGroup<W> {
  typeId: string;
  typeName: string;
  days: Array<{ dayOfWeek: number; windows: W[] }>;
}

/** Windows grouped by type (types by name) and weekday (Monday first), each day by start time. */
export function groupWindows<W extends WindowLike>(windows: W[], types: Array<{ id: string; name: string }>): TypeGroup<W>[] {
  const sortedTypes = [...types].sort((a, b) => a.name.localeCompare(b.name, 'de'));
  return sortedTypes.map((type) => {
    const own = windows.filter((w) => w.appointment_type_id === type.id);
    return {
      typeId: type.id,
      typeName: type.name,
      days: WEEKDAYS_MONDAY_FIRST.map((dayOfWeek) => ({
        dayOfWeek,
        windows: own.filter((w) => w.day_of_week === dayOfWeek).sort((a, b) => a.start_time.localeCompare(b.start_time)),
      })).filter((d) => d.windows.length > 0),
    };
  });
}

export interface MonthGroup<B> {
  /** yyyy-MM */
  month: string;
  items: B[];
}

/** Blocked dates grouped by month, newest month first and newest date first within it (as the API orders them). */
export function groupByMonth<B extends { date: string }>(items: B[]): MonthGroup<B>[] {
  const sorted = [...items].sort((a, b) => b.date.localeCompare(a.date));
  const groups: MonthGroup<B>[] = [];
  for (const item of sorted) {
    const month = item.date.slice(0, 7);
    const last = groups[groups.length - 1];
    if (last?.month === month) last.items.push(item);
    else groups.push({ month, items: [item] });
  }
  return groups;
}

/** The blocked days saved as one range (same range_id) as one entry; a single day is an entry of its own. */
export interface BlockEntry<B> {
  /** The entry's first day (its month groups it). */
  date: string;
  first: B;
  last: B;
  rows: B[];
}

export function blockEntries<B extends { date: string; range_id: string | null }>(rows: B[]): BlockEntry<B>[] {
  const ranges = new Map<string, B[]>();
  const entries: BlockEntry<B>[] = [];
  for (const row of rows) {
    if (row.range_id === null) entries.push({ date: row.date, first: row, last: row, rows: [row] });
    else ranges.set(row.range_id, [...(ranges.get(row.range_id) ?? []), row]);
  }
  for (const days of ranges.values()) {
    days.sort((a, b) => a.date.localeCompare(b.date));
    entries.push({ date: days[0]!.date, first: days[0]!, last: days.at(-1)!, rows: days });
  }
  return entries;
}

/** 'Vergangen' before Berlin's today, otherwise 'Gesperrt'. */
export const isPastDate = (date: string, today: string) => date < today;

export interface SlotLike {
  type_name: string;
  appointment_date: string;
  appointment_time: string;
}

/** Booked slots matching the type-name search (case-insensitive) and the date filter, by date then time. */
export function filterBookedSlots<S extends SlotLike>(slots: S[], search: string, date: string): S[] {
  const needle = search.trim().toLocaleLowerCase('de');
  return slots
    .filter((s) => (needle === '' || s.type_name.toLocaleLowerCase('de').includes(needle)) && (date === '' || s.appointment_date === date))
    .sort((a, b) => a.appointment_date.localeCompare(b.appointment_date) || a.appointment_time.localeCompare(b.appointment_time));
}

/**
 * The three counters of the booked-slots page. "Angezeigte Termine" counts
 * every row the list shows, struck-through practice cancellations too (and
 * says how many of them there are), so the figure matches the list, also
 * after a search hit opened its day (docs/decisions/041); "Heute" and
 * "Verschiedene Tage" count the appointments that still stand.
 */
export function bookedCounters(
  all: Array<SlotLike & { status?: string }>,
  today: string,
): { shown: number; cancelled: number; today: number; days: number } {
  const shown = all.filter((s) => s.status !== 'cancelled_by_practice');
  return {
    shown: all.length,
    cancelled: all.length - shown.length,
    today: shown.filter((s) => s.appointment_date === today).length,
    days: new Set(shown.map((s) => s.appointment_date)).size,
  };
}

export type InventoryFilter = 'all' | 'low-stock' | 'expiring';

export function inventorySummary<I extends StockLevels>(items: I[], today: string) {
  return {
    lowStock: items.filter(isLowStock).length,
    expiring: items.filter((i) => isExpiringSoon(i, today)).length,
    reorder: items.filter(needsReorder).length,
  };
}

export function filterInventory<I extends StockLevels>(items: I[], filter: InventoryFilter, today: string): I[] {
  if (filter === 'low-stock') return items.filter(isLowStock);
  if (filter === 'expiring') return items.filter((i) => isExpiringSoon(i, today));
  return items;
}

/**
 * One day of the day list: that date's bookings in time order (then by
 * type name, so two patients at one time stay in a stable order).
 */
export function dayList<S extends SlotLike>(slots: S[], date: string): S[] {
  return slots
    .filter((s) => s.appointment_date === date)
    .sort((a, b) => a.appointment_time.localeCompare(b.appointment_time) || a.type_name.localeCompare(b.type_name, 'de'));
}

/** The Monday (yyyy-MM-dd) of the week a date lies in; weeks run Monday to Sunday. */
/**
 * The day list's default days: the next `count` days from `today` on (today
 * included) on whose weekday some type has a time window, so a Friday shows
 * Friday and Monday, not an empty Saturday; a Sunday shows Monday and
 * Tuesday. Looks two weeks ahead; without any window, today and tomorrow.
 */
export function nextDaysWithWindows(today: string, windows: Array<{ day_of_week: number }>, count = 2): string[] {
  const open = new Set(windows.map((w) => w.day_of_week));
  const days: string[] = [];
  for (let i = 0; i < 14 && days.length < count; i++) {
    const date = addDaysToDate(today, i);
    if (open.has(weekdayOf(date))) days.push(date);
  }
  return days.length > 0 ? days : Array.from({ length: count }, (_, i) => addDaysToDate(today, i));
}

export function mondayOf(date: string): string {
  return addDaysToDate(date, -((weekdayOf(date) + 6) % 7));
}

/** The seven dates of the week that starts on `monday`. */
export function weekDates(monday: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDaysToDate(monday, i));
}

export interface BlockLike {
  date: string;
  /** A range of days (docs/decisions/020-reception.md), when a row stands for several. */
  end_date?: string | null;
  appointment_type_id: string | null;
  start_time: string | null;
  end_time: string | null;
}

/** The blocks that apply on a date (whole days first, then by start time). */
export function blocksOn<B extends BlockLike>(blocks: B[], date: string): B[] {
  return blocks
    .filter((b) => b.date <= date && date <= (b.end_date ?? b.date))
    .sort((a, b) => (a.start_time ?? '').localeCompare(b.start_time ?? ''));
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * Whether a booking lies in a block of its date: a whole-day block, or a
 * partial one its [time, time + duration) overlaps, for its type or for all
 * (the rule of src/lib/availability.ts). Such a booking was made before the
 * block, or kept when it was set; the lists mark it.
 */
export function inBlock(
  slot: { appointment_type_id: string; appointment_time: string },
  blocksOfDay: BlockLike[],
  durationMinutes: number,
): boolean {
  const start = minutesOf(slot.appointment_time);
  return blocksOfDay.some(
    (b) =>
      (b.appointment_type_id === null || b.appointment_type_id === slot.appointment_type_id) &&
      (b.start_time === null || b.end_time === null || (minutesOf(b.start_time) < start + durationMinutes && start < minutesOf(b.end_time))),
  );
}

/** Today's appointments that have not ended yet (start + the type's duration after `now`, HH:mm), practice cancellations left out. */
export function remainingToday<S extends SlotLike & { appointment_type_id: string; status?: string }>(
  slots: S[],
  durations: Map<string, number>,
  today: string,
  now: string,
): S[] {
  return dayList(slots, today).filter(
    (s) => s.status !== 'cancelled_by_practice' && minutesOf(s.appointment_time) + (durations.get(s.appointment_type_id) ?? 0) > minutesOf(now),
  );
}

/** What a staff view knows of a booking's patient (docs/decisions/025). */
export interface PatientLike {
  patient?: { first_name: string; last_name: string; birth_date: string | null } | null;
  patient_state?: 'present' | 'unreadable' | 'none';
}

/** yyyy-mm-dd → dd.mm.yyyy */
export const germanDate = (iso: string) => iso.split('-').reverse().join('.');

const fullName = (p: { first_name: string; last_name: string }) => `${p.last_name}, ${p.first_name}`.replace(/^, /, '');

/**
 * The name a list shows for each booking: "Nachname, Vorname", with the
 * birth date where two bookings of the list carry the same name (two
 * vaccinations at one time; a list that shows every birth date beside the
 * name passes no `born`); "nicht lesbar" when no key opens the details;
 * `none` when there are none. Keyed by the row, in the list's order.
 */
export function patientNames<S extends PatientLike>(slots: S[], text: { unreadable: string; none: string; born?: (date: string) => string }): Map<S, string> {
  const counts = new Map<string, number>();
  for (const s of slots) if (s.patient) counts.set(fullName(s.patient).toLowerCase(), (counts.get(fullName(s.patient).toLowerCase()) ?? 0) + 1);
  const out = new Map<S, string>();
  for (const s of slots) {
    if (!s.patient) out.set(s, s.patient_state === 'unreadable' ? text.unreadable : text.none);
    else {
      const name = fullName(s.patient);
      const twin = (counts.get(name.toLowerCase()) ?? 0) > 1;
      out.set(s, twin && s.patient.birth_date && text.born ? `${name} (${text.born(germanDate(s.patient.birth_date))})` : name);
    }
  }
  return out;
}

/**
 * Free dates and times of one type, loaded a month at a time (one request
 * per shown month, never one per candidate time). Dates outside the answer
 * are not selectable. "Today" is Berlin's. The same answer names the
 * month's holidays (docs/decisions/039-public-holidays.md), which the
 * calendar marks.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { fetchAvailability, type AppointmentType, type ClosedDay, type DayAvailability, type RangeAvailability } from './api';

export interface MonthAvailability {
  /** yyyy-MM */
  month: string;
  days: Map<string, string[]>;
}

const monthOf = (date: string) => date.slice(0, 7);

function monthRange(month: string, today: string, last: string): [string, string] | null {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const first = `${month}-01`;
  const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  const from = first < today ? today : first;
  const to = end > last ? last : end;
  return from <= to ? [from, to] : null;
}

export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * Where the days come from: the wizard's public availability within the
 * type's advance window (default), or staff's (the back office's picker:
 * its own endpoint and horizon, docs/decisions/021).
 */
export interface AvailabilitySource {
  fetch: (typeId: string, from: string, to: string) => Promise<RangeAvailability>;
  /** Days after today the calendar reaches. */
  horizonDays: number;
}

export function useAvailability(type: Pick<AppointmentType, 'id' | 'max_advance_days'> | null, onError: () => void, source?: AvailabilitySource) {
  const [data, setData] = useState<Map<string, DayAvailability[]>>(new Map());
  const [holidays, setHolidays] = useState<Map<string, ClosedDay[]>>(new Map());
  const [loading, setLoading] = useState(false);
  const generation = useRef(0);
  // The type whose days are shown: an answer for another one (a search still
  // running for the type picked before) is never stored under its months.
  const shownType = useRef(type?.id);
  const today = berlinToday();
  const last = type ? addDaysToDate(today, source ? source.horizonDays : type.max_advance_days) : today;
  const fetchDays = source?.fetch ?? fetchAvailability;

  useEffect(() => {
    generation.current++;
    shownType.current = type?.id;
    setData(new Map());
    setHolidays(new Map());
  }, [type?.id]);

  const loadMonth = useCallback(
    async (month: string): Promise<DayAvailability[] | null> => {
      if (!type) return null;
      const range = monthRange(month, today, last);
      if (!range) {
        setData((d) => new Map(d).set(month, []));
        return [];
      }
      const mine = generation.current;
      const current = () => mine === generation.current && shownType.current === type.id;
      setLoading(true);
      try {
        const { days, holidays: closed } = await fetchDays(type.id, range[0], range[1]);
        if (current()) {
          setData((d) => new Map(d).set(month, days));
          setHolidays((h) => new Map(h).set(month, closed));
        }
        return days;
      } catch {
        if (current()) onError();
        return null;
      } finally {
        if (current()) setLoading(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [type?.id, today, last, onError],
  );

  /**
   * Where the calendar opens: the first selectable date, preferring
   * one that still has a free time, so a visit after closing time does not
   * open on an empty today. Searches month by month up to the advance limit.
   */
  const findFirst = useCallback(async (): Promise<{ month: string; date: string | null } | null> => {
    // A search overtaken by another type or a reset stops: its months are no longer the shown ones.
    const started = generation.current;
    let month = monthOf(today);
    let fallback: { month: string; date: string } | null = null;
    while (month <= monthOf(last)) {
      const days = await loadMonth(month);
      if (days === null || started !== generation.current) return null;
      const withTimes = days.find((d) => d.times.length > 0);
      if (withTimes) return { month, date: withTimes.date };
      if (!fallback && days.length > 0) fallback = { month, date: days[0]!.date };
      month = nextMonth(month);
    }
    return fallback ?? { month: monthOf(today), date: null };
  }, [today, last, loadMonth]);

  const daysOf = (month: string) => data.get(month);
  const timesOf = (date: string) => data.get(monthOf(date))?.find((d) => d.date === date)?.times;
  /** The holidays (and other closed days) of a loaded month. */
  const holidaysOf = (month: string) => holidays.get(month) ?? [];

  /** Forgets what was loaded (after a refusal: the next look asks the server again). */
  const reset = useCallback(() => {
    generation.current++;
    setData(new Map());
    setHolidays(new Map());
  }, []);

  return { today, last, loading, loadMonth, findFirst, daysOf, timesOf, holidaysOf, reset, isLoaded: (m: string) => data.has(m) };
}

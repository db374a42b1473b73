/**
 * The staff slot picker, used by "Termin eintragen" and "Verschieben": a
 * calendar of the dates staff may use (up to 365 days ahead, never past,
 * blocked or full) and the free start times of the chosen date, from
 * GET /api/admin/availability (docs/decisions/021). No free typing: only
 * what the server offers can be picked; the server checks again on save.
 * Loads one month at a time, like the wizard (the same hook). Public
 * holidays are marked with their name; a closed one can be picked, and
 * the booking asks first (docs/decisions/039-public-holidays.md).
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { de } from 'react-day-picker/locale';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DayPicker, labelDayButton } from 'react-day-picker';
import 'react-day-picker/style.css';
import { STAFF_BOOKING_DAYS } from '../../../lib/admin-schemas';
import { PRACTICE_TIME_ZONE } from '../../../lib/berlin-time';
import { formatLongDate } from '../../../lib/dates';
import { useAvailability, type AvailabilitySource } from '../../booking/use-availability';
import { adminApi, type HolidayDto } from '../shared/admin-api';
import { holidayLabels as H } from '../shared/holiday-labels';
import { labels } from '../shared/labels';

const L = labels.picker;

const toDate = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, PRACTICE_TIME_ZONE);
};
const toIso = (date: Date) => format(date, 'yyyy-MM-dd');

const staffSource: AvailabilitySource = {
  fetch: async (typeId, from, to) => {
    const answer = await adminApi.availability(typeId, from, to);
    return { days: answer.days, holidays: answer.holidays ?? [] };
  },
  horizonDays: STAFF_BOOKING_DAYS,
};

export interface PickedSlot {
  date: string | null;
  time: string | null;
}

export function SlotPicker({
  typeId,
  value,
  onChange,
  exclude,
  reload = 0,
}: {
  typeId: string;
  value: PickedSlot;
  onChange: (value: PickedSlot) => void;
  /** The booking's own time (a move): not offered. */
  exclude?: { date: string; time: string };
  /** Bumped after a refusal: the picker asks the server again. */
  reload?: number;
}) {
  const [failed, setFailed] = useState(false);
  const onError = useCallback(() => setFailed(true), []);
  const type = useMemo(() => ({ id: typeId, max_advance_days: STAFF_BOOKING_DAYS }), [typeId]);
  const availability = useAvailability(type, onError, staffSource);
  const [month, setMonth] = useState(() => (value.date ?? availability.today).slice(0, 7));
  // A month turned or a date picked by hand while the first free date is still being
  // searched (a slow connection) stays: the search's answer must not snap back over it.
  const chosenByHand = useRef(false);

  // Opens on the chosen date's month (a move: the booking's), else on the first date with a free time.
  useEffect(() => {
    let live = true;
    chosenByHand.current = false;
    setFailed(false);
    availability.reset();
    void (async () => {
      if (value.date) {
        setMonth(value.date.slice(0, 7));
        await availability.loadMonth(value.date.slice(0, 7));
        return;
      }
      const first = await availability.findFirst();
      if (!live || !first || chosenByHand.current) return;
      setMonth(first.month);
      if (first.date) onChange({ date: first.date, time: null });
    })();
    return () => {
      live = false;
    };
    // Once per type and after each refusal.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typeId, reload]);

  const changeMonth = (next: Date) => {
    chosenByHand.current = true;
    const m = toIso(next).slice(0, 7);
    setMonth(m);
    if (!availability.isLoaded(m)) void availability.loadMonth(m);
  };

  const freeOf = (date: string) =>
    (availability.timesOf(date) ?? []).filter((time) => !(exclude && exclude.date === date && exclude.time === time));
  const selectable = new Set((availability.daysOf(month) ?? []).filter((d) => freeOf(d.date).length > 0).map((d) => d.date));
  const times = value.date ? freeOf(value.date) : [];
  const loading = value.date !== null && !availability.isLoaded(value.date.slice(0, 7));
  // Staff's answer names every holiday of the month with whether it is closed.
  const holidayOn = new Map((availability.holidaysOf(month) as HolidayDto[]).map((h) => [h.date, h]));
  const chosenHoliday = value.date ? (availability.holidaysOf(value.date.slice(0, 7)) as HolidayDto[]).find((h) => h.date === value.date) : undefined;

  return (
    <div className="grid gap-4">
      <div>
        <p className="mb-1 text-sm font-medium" id="picker-date-label">
          {L.date}
        </p>
        <DayPicker
          aria-labelledby="picker-date-label"
          mode="single"
          timeZone={PRACTICE_TIME_ZONE}
          locale={de}
          weekStartsOn={1}
          month={toDate(`${month}-01`)}
          onMonthChange={changeMonth}
          startMonth={toDate(`${availability.today.slice(0, 7)}-01`)}
          endMonth={toDate(`${availability.last.slice(0, 7)}-01`)}
          selected={value.date ? toDate(value.date) : undefined}
          modifiers={{ holiday: (d) => holidayOn.has(toIso(d)) }}
          modifiersClassNames={{ holiday: 'rdp-holiday' }}
          labels={{
            labelDayButton: (d, modifiers, options, dateLib) => {
              const own = de.labels?.labelDayButton;
              const label = typeof own === 'function' ? own(d, modifiers, options, dateLib) : labelDayButton(d, modifiers, options, dateLib);
              const holiday = holidayOn.get(toIso(d));
              return holiday ? `${label}, ${H.dayLabel(holiday)}` : label;
            },
          }}
          onSelect={(d) => {
            if (!d) return;
            chosenByHand.current = true;
            onChange({ date: toIso(d), time: null });
          }}
          disabled={(d) => !selectable.has(toIso(d))}
          required
        />
        {failed && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {L.loadError}
          </p>
        )}
      </div>
      <div>
        <p className="mb-1 text-sm font-medium">{value.date ? L.timesOf(formatLongDate(value.date, 'de')) : L.time}</p>
        {chosenHoliday && (
          <p data-testid="picker-holiday" className={`mb-2 rounded-md border px-3 py-1.5 text-sm ${chosenHoliday.closed ? 'border-amber-300 bg-amber-50 text-amber-950' : 'border-slate-300 bg-slate-50 text-slate-800'}`}>
            {H.pickerNote(chosenHoliday)}
          </p>
        )}
        {!value.date ? (
          <p className="text-sm text-slate-600">{L.dateFirst}</p>
        ) : loading ? (
          <p role="status" className="text-sm text-slate-600">
            {labels.loading}
          </p>
        ) : times.length === 0 ? (
          <p className="text-sm text-slate-600">{L.noTimes}</p>
        ) : (
          <div role="group" aria-label={L.time} className="grid max-h-60 grid-cols-3 gap-2 overflow-y-auto p-1">
            {times.map((time) => (
              <button
                key={time}
                type="button"
                aria-pressed={time === value.time}
                aria-label={L.timeButton(time)}
                onClick={() => onChange({ date: value.date, time })}
                className={`rounded-md border px-2 py-2 text-sm font-medium ${time === value.time ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 text-slate-800 hover:bg-brand-50'}`}
              >
                {time}
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

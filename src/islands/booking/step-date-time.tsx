import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { DayPicker, labelDayButton } from 'react-day-picker';
import { de as dayPickerDe, enGB as dayPickerEn } from 'react-day-picker/locale';
import 'react-day-picker/style.css';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Lang } from '../../i18n/i18n';
import { PRACTICE_TIME_ZONE } from '../../lib/berlin-time';
import { formatLongDate } from '../../lib/dates';
import type { LocalizedTypeName } from '../../lib/type-text';
import type { AppointmentType, ClosedDay } from './api';
import { sentenceWithTypeName } from './type-name';
import type { FreshDays } from './fresh-days';
import { useAvailability } from './use-availability';
import { WaitlistLink } from '../waitlist/waitlist-link';

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  type: AppointmentType;
  typeName: LocalizedTypeName;
  lang: Lang;
  date: string | null;
  time: string | null;
  /** The time chosen before was just taken by someone else: the notice to show (the wizard's by default). */
  slotTaken?: boolean | 'reschedule';
  onDate: (date: string | null) => void;
  onTime: (time: string | null) => void;
  /** When moving: the patient's own appointment, shown on its day as "Ihr Termin" and never offered (docs/decisions/029). */
  own?: { date: string; time: string };
  /** What the last refusal answered of the days around its date (fresher than the loaded month). */
  fresh?: FreshDays | null;
}

const toDate = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, PRACTICE_TIME_ZONE);
};
const toIso = (date: Date) => format(date, 'yyyy-MM-dd');
const monthStart = (iso: string) => toDate(`${iso.slice(0, 7)}-01`);
/** "Fr., 25.12." / "Fri 25 Dec" */
const formatDayMonth = (iso: string, lang: Lang) => format(toDate(iso), lang === 'de' ? 'EEEEEE., dd.MM.' : 'EEE d MMM', { locale: lang === 'de' ? dayPickerDe : dayPickerEn });

export function StepDateTime({ headingRef, type, typeName, lang, date, time, slotTaken, onDate, onTime, own, fresh }: Props) {
  const { t } = useTranslation();
  const onError = useCallback(() => {
    toast.error(t('toast.bookingError'), { description: t('toast.timeSlotsError') });
  }, [t]);
  const loaded = useAvailability(type, onError);
  const mine = own ? withoutOwnTime(loaded, own) : loaded;
  const availability = fresh ? withFreshDays(mine, fresh) : mine;
  const [month, setMonth] = useState(() => (date ?? availability.today).slice(0, 7));
  const [searching, setSearching] = useState(true);
  // A month turned or a date picked by hand while the first free date is still being
  // searched (a slow connection) stays: the search's answer must not snap back over it.
  const chosenByHand = useRef(false);

  // When the type's slots load, show the month of the first selectable date and select it,
  // unless the current selection (a same-day type's today, or a date chosen before going
  // back) is itself still selectable.
  useEffect(() => {
    let active = true;
    const open = async () => {
      if (date) {
        const days = await availability.loadMonth(date.slice(0, 7));
        if (!active) return;
        if (days?.some((d) => d.date === date)) {
          setMonth(date.slice(0, 7));
          setSearching(false);
          return;
        }
      }
      const first = await availability.findFirst();
      if (!active) return;
      setSearching(false);
      if (!first || chosenByHand.current) return;
      setMonth(first.month);
      if (first.date !== date) onDate(first.date);
    };
    void open();
    return () => {
      active = false;
    };
    // Runs once per type (the component is keyed by type).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A selection that is not selectable moves to the first selectable date.
  useEffect(() => {
    if (searching || !date || !availability.isLoaded(date.slice(0, 7))) return;
    if (availability.timesOf(date) === undefined) {
      const days = availability.daysOf(date.slice(0, 7)) ?? [];
      onDate(days[0]?.date ?? null);
    }
  });

  // A chosen time that is not free (any more) is cleared, so "Next" waits for a free one.
  useEffect(() => {
    if (searching || !date || !time || !availability.isLoaded(date.slice(0, 7))) return;
    if (!availability.timesOf(date)?.includes(time)) onTime(null);
  });

  const changeMonth = (next: Date) => {
    chosenByHand.current = true;
    const m = toIso(next).slice(0, 7);
    setMonth(m);
    if (!availability.isLoaded(m)) void availability.loadMonth(m);
  };

  // A day is selectable only with a free time left: today after its last time, or a full day, is greyed out
  // like a closed one, never styled as a choice (docs/decisions/029).
  // The day of the patient's own appointment (moving) stays selectable, to show it.
  const selectable = new Set((availability.daysOf(month) ?? []).filter((d) => d.times.length > 0 || d.date === own?.date).map((d) => d.date));
  // The month's public holidays and other closed days (24/31 December when the practice closes them), from the
  // server's answer: marked in the calendar, named beneath it and in each day's label (docs/decisions/039-public-holidays.md).
  const closedDays = availability.holidaysOf(month);
  const closedOn = new Map(closedDays.map((d) => [d.date, d]));
  const closedText = (day: ClosedDay) => `${t(day.statutory ? 'datetime.holiday' : 'datetime.practiceClosed')}: ${lang === 'de' ? day.name : day.name_en}`;
  const dayPickerLocale = lang === 'de' ? dayPickerDe : dayPickerEn;
  const times = date ? availability.timesOf(date) : undefined;
  const loadingTimes = searching || (date !== null && !availability.isLoaded(date.slice(0, 7)));

  return (
    <section aria-labelledby="step-datetime-heading">
      <h2 id="step-datetime-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold text-slate-900">
        {t('datetime.title')}
      </h2>
      <p className="mb-4 text-slate-700">
        {sentenceWithTypeName((name) => t('datetime.heading', { type: name, minutes: type.slot_duration_minutes }), typeName)}
      </p>
      {slotTaken && (
        <p role="alert" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-4 font-medium text-slate-900">
          {t(slotTaken === 'reschedule' ? 'datetime.slotTakenMove' : 'datetime.slotTaken')}
        </p>
      )}
      <div className="grid gap-6 md:grid-cols-2">
        {/* The card is the calendar's size container: its day cells shrink to fit a 320 px screen (global.css). */}
        <div className="@container rounded-lg border border-slate-200 p-4">
          <h3 className="mb-2 font-semibold text-slate-900">{t('datetime.selectDate')}</h3>
          <DayPicker
            mode="single"
            timeZone={PRACTICE_TIME_ZONE}
            locale={dayPickerLocale}
            weekStartsOn={1}
            month={monthStart(`${month}-01`)}
            modifiers={{ holiday: (d) => closedOn.has(toIso(d)) }}
            modifiersClassNames={{ holiday: 'rdp-holiday' }}
            labels={{
              labelDayButton: (d, modifiers, options, dateLib) => {
                const own = dayPickerLocale.labels?.labelDayButton;
                const label = typeof own === 'function' ? own(d, modifiers, options, dateLib) : labelDayButton(d, modifiers, options, dateLib);
                const closed = closedOn.get(toIso(d));
                return closed ? `${label}, ${closedText(closed)}` : label;
              },
            }}
            onMonthChange={changeMonth}
            startMonth={monthStart(availability.today)}
            endMonth={monthStart(availability.last)}
            selected={date ? toDate(date) : undefined}
            onSelect={(d) => {
              if (!d) return;
              chosenByHand.current = true;
              onDate(toIso(d));
            }}
            disabled={(d) => !selectable.has(toIso(d))}
            required
          />
          {closedDays.length > 0 && (
            <ul aria-label={t('datetime.closedDays')} data-testid="closed-days" className="mt-2 space-y-0.5 text-sm text-slate-800">
              {closedDays.map((day) => (
                <li key={day.date} className="flex items-baseline gap-2">
                  <span aria-hidden="true" className="inline-block h-2 w-2 shrink-0 rounded-full bg-red-700" />
                  <span>
                    <span className="font-medium">{formatDayMonth(day.date, lang)}</span> {closedText(day)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-2 text-xs text-slate-600">{t('datetime.unavailableDay')}</p>
          {!searching && availability.isLoaded(month) && selectable.size === 0 && month === availability.today.slice(0, 7) && !date && (
            <p className="mt-2 text-sm text-slate-700">{t('datetime.noDates')}</p>
          )}
          {!searching && availability.isLoaded(month) && selectable.size === 0 && (
            <WaitlistLink lang={lang} query={{ type: type.id }} className="mt-2 text-sm" />
          )}
        </div>
        <div className="rounded-lg border border-slate-200 p-4">
          <h3 className="font-semibold text-slate-900">{t('datetime.selectTime')}</h3>
          {date && <p className="mb-3 text-sm text-slate-700">{formatLongDate(date, lang)}</p>}
          {!date ? (
            <p className="text-slate-700">{searching ? '' : t('datetime.selectDateFirst')}</p>
          ) : loadingTimes ? (
            <div aria-busy="true" aria-label={t('datetime.loadingTimes')} className="grid grid-cols-3 gap-2">
              {[0, 1, 2, 3, 4, 5].map((i) => (
                <div key={i} data-testid="time-placeholder" className="h-10 animate-pulse rounded-md bg-slate-100" />
              ))}
            </div>
          ) : (!times || times.length === 0) && !(own && own.date === date) ? (
            <>
              <p className="text-slate-700">{t('datetime.noTimes')}</p>
              <WaitlistLink lang={lang} query={{ type: type.id }} className="mt-2 text-sm" />
            </>
          ) : (
            <TimeList times={times} chosen={time} onTime={onTime} own={own && own.date === date ? own.time : undefined} />
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * The free times of a day, three to a row. A long day scrolls within its
 * card (the calendar stays in view); while times are hidden below, the list
 * fades out at its foot and says so (on a phone nothing used to show
 * that more times followed).
 */
function TimeList({ times, chosen, onTime, own }: { times: string[] | undefined; chosen: string | null; onTime: (time: string) => void; own?: string }) {
  const { t } = useTranslation();
  // The patient's own time (moving) takes its place in the day's order, marked and not a choice.
  const slots = own ? [...new Set([...(times ?? []), own])].sort() : (times ?? []);
  const listRef = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  const measure = useCallback(() => {
    const list = listRef.current;
    if (list) setMore(list.scrollTop + list.clientHeight < list.scrollHeight - 1);
  }, []);
  useEffect(() => {
    measure();
    const list = listRef.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => observer.disconnect();
  }, [measure, slots.length]);
  return (
    <>
      <div
        ref={listRef}
        role="group"
        aria-label={t('datetime.selectTime')}
        onScroll={measure}
        className={`grid max-h-60 grid-cols-3 gap-2 overflow-y-auto p-1 ${more ? 'mask-b-from-75%' : ''}`}
      >
        {slots.map((slot) =>
          slot === own ? (
            <span
              key={slot}
              data-testid="own-time"
              className="flex flex-col items-center justify-center rounded-md border border-dashed border-slate-400 bg-slate-50 px-1 py-1 text-center text-xs leading-tight font-medium text-slate-700"
            >
              <span className="text-sm">{slot}</span>
              <span className="sr-only">: </span>
              <span>{t('datetime.ownTime')}</span>
            </span>
          ) : (
            <button
              key={slot}
              type="button"
              aria-pressed={slot === chosen}
              aria-label={t('datetime.time', { time: slot })}
              onClick={() => onTime(slot)}
              className={`rounded-md border px-2 py-2 text-sm font-medium ${slot === chosen ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 text-slate-800 hover:bg-brand-50'}`}
            >
              {slot}
            </button>
          ),
        )}
      </div>
      {more && (
        <p data-testid="more-times" className="mt-2 flex items-center justify-center gap-1 text-sm text-slate-700">
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M12 5v14M6 13l6 6 6-6" />
          </svg>
          {t('datetime.moreTimes')}
        </p>
      )}
    </>
  );
}

type Availability = ReturnType<typeof useAvailability>;

/** The availability without the patient's own time (moving): shown on its day, never a choice. */
function withoutOwnTime(availability: Availability, own: { date: string; time: string }): Availability {
  const rest = (times: string[]) => times.filter((x) => x !== own.time);
  return {
    ...availability,
    daysOf: (month) => availability.daysOf(month)?.map((d) => (d.date === own.date ? { ...d, times: rest(d.times) } : d)),
    timesOf: (date) => {
      const times = availability.timesOf(date);
      return date === own.date && times !== undefined ? rest(times) : times;
    },
  };
}

function withFreshDays(availability: Availability, fresh: FreshDays): Availability {
  const byDate = new Map(fresh.days.map((d) => [d.date, d.times]));
  const within = (date: string) => date >= fresh.from && date <= fresh.to;
  return {
    ...availability,
    daysOf: (month) =>
      availability
        .daysOf(month)
        ?.filter((d) => !within(d.date) || byDate.has(d.date))
        .map((d) => (byDate.has(d.date) ? { ...d, times: byDate.get(d.date)! } : d)),
    timesOf: (date) => {
      const times = availability.timesOf(date);
      if (times === undefined || !within(date)) return times;
      return byDate.get(date);
    },
  };
}

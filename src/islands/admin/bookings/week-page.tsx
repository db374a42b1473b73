/**
 * "Wochenansicht" (/admin/woche, docs/decisions/020-reception.md): Monday to Sunday,
 * each day's blocks and bookings in time order (time, type, reference,
 * source, status), the previous and next week and a date to jump to.
 * The shown week stays in the address (`?datum=`), so a reload or a
 * printout keeps it; it prints on A4 like the day list
 * (src/pages/admin/woche.astro).
 */
import { getISOWeek } from 'date-fns/getISOWeek';
import { useState } from 'react';
import { addDaysToDate, berlinToday } from '../../../lib/berlin-time';
import { calendarDate, formatShortDate } from '../../../lib/dates';
import { DaySchedule, dateFromUrl, PrintedAt, putDateInUrl, useSchedule } from './day-schedule';
import { labels } from '../shared/labels';
import { inputClass, Loading, PageHeader, PrintButton, secondaryButton } from '../shared/ui';
import { mondayOf, weekDates } from '../shared/views';
import { WaitlistSection } from './waitlist-panel';

const L = labels.week;

export function WeekPage() {
  const today = berlinToday();
  const [monday, setMonday] = useState(() => mondayOf(dateFromUrl() ?? today));
  const dates = weekDates(monday);
  const schedule = useSchedule(dates[0]!, dates[6]!, L.loadError, 'week');
  const title = L.title(getISOWeek(calendarDate(monday)), formatShortDate(dates[0]!), formatShortDate(dates[6]!));

  function show(date: string) {
    const next = mondayOf(date);
    setMonday(next);
    // The current week needs no date in the address.
    putDateInUrl(next === mondayOf(today) ? null : next);
  }

  return (
    <div className="week-view">
      <div className="print:hidden">
        <PageHeader
          title={labels.nav.week}
          intro={L.intro}
          action={<PrintButton />}
        />
        <div className="mb-6 flex flex-wrap items-end gap-3">
          <button type="button" className={secondaryButton} onClick={() => show(addDaysToDate(monday, -7))}>
            {L.previous}
          </button>
          <button type="button" className={secondaryButton} onClick={() => show(today)} disabled={monday === mondayOf(today)}>
            {L.current}
          </button>
          <button type="button" className={secondaryButton} onClick={() => show(addDaysToDate(monday, 7))}>
            {L.next}
          </button>
          <div>
            <label htmlFor="week-date" className="block text-sm font-medium">
              {L.date}
            </label>
            <input id="week-date" type="date" className={inputClass} value={monday} onChange={(e) => e.target.value && show(e.target.value)} />
          </div>
        </div>
      </div>
      <h2 className="mb-4 text-lg font-semibold" aria-live="polite">
        {title}
      </h2>
      {/* On paper (A4 landscape) the days run in two columns, so an ordinary week fits one page (docs/decisions/030). */}
      <div className="week-days print:columns-2 print:gap-8">
        {schedule === null ? <Loading /> : dates.map((date) => <DaySchedule key={date} date={date} headingLevel={3} {...schedule} />)}
      </div>
      <WaitlistSection from={dates[0]!} to={dates[6]!} />
      <PrintedAt />
    </div>
  );
}

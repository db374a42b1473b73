/**
 * "Tagesliste": today's and tomorrow's appointments (or one chosen date) in
 * time order, with the day's blocked times, for the front desk to print.
 * The date field always shows the first day listed. The print stylesheet
 * (src/pages/admin/day-list.astro) sets A4; the page's controls are hidden
 * in print, and the printout is headed with the practice's name
 * (admin-page.astro).
 */
import { useState } from 'react';
import { addDaysToDate, berlinToday } from '../../../lib/berlin-time';
import { DaySchedule, dateFromUrl, PrintedAt, putDateInUrl, useSchedule } from './day-schedule';
import { labels } from '../shared/labels';
import { inputClass, Loading, PageHeader, PrintButton, secondaryButton } from '../shared/ui';

const L = labels.dayList;

export function DayListPage() {
  const today = berlinToday();
  // null: today and tomorrow; a date: that day only.
  const [chosen, setChosen] = useState<string | null>(dateFromUrl);
  const dates = chosen ? [chosen] : [today, addDaysToDate(today, 1)];
  const schedule = useSchedule(dates[0]!, dates.at(-1)!, L.loadError);

  function choose(date: string | null) {
    setChosen(date);
    putDateInUrl(date);
  }

  return (
    <div className="day-list">
      <div className="print:hidden">
        <PageHeader
          title={labels.nav['day-list']}
          intro={L.intro}
          action={<PrintButton />}
        />
        <div className="mb-6 flex flex-wrap items-end gap-4">
          <div>
            <label htmlFor="day-list-date" className="block text-sm font-medium">
              {L.date}
            </label>
            <input
              id="day-list-date"
              type="date"
              aria-describedby="day-list-date-hint"
              className={inputClass}
              value={chosen ?? today}
              onChange={(e) => choose(e.target.value || null)}
            />
          </div>
          <p id="day-list-date-hint" className="pb-2 text-sm text-slate-600">
            {chosen ? L.oneDay : L.withTomorrow}
          </p>
          {chosen && (
            <button type="button" className={secondaryButton} onClick={() => choose(null)}>
              {L.today}
            </button>
          )}
        </div>
      </div>
      {schedule === null ? (
        <Loading />
      ) : (
        dates.map((date) => <DaySchedule key={date} date={date} arrival {...schedule} />)
      )}
      <PrintedAt />
    </div>
  );
}

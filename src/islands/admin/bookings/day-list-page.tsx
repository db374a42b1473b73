/**
 * "Tagesliste": the appointments of the next two days with time windows,
 * today first when it has any (a Friday shows Friday and Monday, not an
 * empty Saturday), or of one chosen date, in time order, with the day's
 * blocked times, for the front desk to print.
 * The date field always shows the first day listed. The print stylesheet
 * (src/pages/admin/day-list.astro) sets A4; the page's controls are hidden
 * in print, and the printout is headed with the practice's name
 * (admin-page.astro).
 */
import { useEffect, useState } from 'react';
import { addDaysToDate, berlinToday } from '../../../lib/berlin-time';
import { DaySchedule, dateFromUrl, PrintedAt, putDateInUrl, useSchedule } from './day-schedule';
import { adminApi } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { inputClass, Loading, PageHeader, PrintButton, secondaryButton } from '../shared/ui';
import { nextDaysWithWindows } from '../shared/views';

const L = labels.dayList;

const weekdayAndDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'numeric' });

/** What the default shows: "Heute und morgen …", or the days it skipped to ("heute und Mo., 30.11."). */
function shownDays(today: string, dates: string[]): string {
  if (dates.length === 2 && dates[0] === today && dates[1] === addDaysToDate(today, 1)) return L.withTomorrow;
  return L.nextDays(dates.map((date) => (date === today ? L.todayWord : weekdayAndDate.format(new Date(`${date}T12:00:00Z`)))));
}

/** The weekdays' time windows of every type; null while loading, none when they could not be read (then today and tomorrow). */
function useWindows(): Array<{ day_of_week: number }> | null {
  const [windows, setWindows] = useState<Array<{ day_of_week: number }> | null>(null);
  useEffect(() => {
    let live = true;
    adminApi.windows.list().then(
      (list) => live && setWindows(list),
      () => live && setWindows([]),
    );
    return () => {
      live = false;
    };
  }, []);
  return windows;
}

export function DayListPage() {
  const today = berlinToday();
  // null: the next days with time windows; a date: that day only.
  const [chosen, setChosen] = useState<string | null>(dateFromUrl);
  const windows = useWindows();
  const dates = chosen ? [chosen] : windows ? nextDaysWithWindows(today, windows) : null;
  const schedule = useSchedule(dates?.[0] ?? null, dates?.at(-1) ?? null, L.loadError);

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
              value={chosen ?? dates?.[0] ?? today}
              onChange={(e) => choose(e.target.value || null)}
            />
          </div>
          <p id="day-list-date-hint" className="pb-2 text-sm text-slate-600" aria-live="polite">
            {chosen ? L.oneDay : dates ? shownDays(today, dates) : ''}
          </p>
          {chosen && (
            <button type="button" className={secondaryButton} onClick={() => choose(null)}>
              {L.today}
            </button>
          )}
        </div>
      </div>
      {schedule === null || dates === null ? (
        <Loading />
      ) : (
        dates.map((date) => <DaySchedule key={date} date={date} arrival {...schedule} />)
      )}
      <PrintedAt />
    </div>
  );
}

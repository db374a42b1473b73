/**
 * "Tagesliste": today's and tomorrow's appointments (or one chosen date) in
 * time order, for the front desk to print. The print stylesheet
 * (src/pages/admin/day-list.astro) sets A4 and hides the navigation; the
 * controls here are hidden in print.
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { formatLongDate } from '../../lib/dates';
import { adminApi, type AdminBookedSlotDto } from './admin-api';
import { labels } from './labels';
import { inputClass, Loading, PageHeader, secondaryButton, useList } from './ui';
import { dayList } from './views';

const L = labels.dayList;
const stamp = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

export function DayListPage() {
  const { items: all } = useList(adminApi.booked.list, () => toast.error(labels.common.error, { description: L.loadError }));
  // Practice cancellations are no appointments of the day (the booked-slots page shows them struck through).
  const items = all?.filter((s) => s.status === 'booked') ?? null;
  const [chosen, setChosen] = useState('');
  const today = berlinToday();
  const dates = chosen ? [chosen] : [today, addDaysToDate(today, 1)];

  return (
    <div className="day-list">
      <div className="print:hidden">
        <PageHeader
          title={labels.nav['day-list']}
          intro={L.intro}
          action={
            <button type="button" className={secondaryButton} onClick={() => window.print()}>
              {L.print}
            </button>
          }
        />
        <div className="mb-6 flex flex-wrap items-end gap-4">
          <div>
            <label htmlFor="day-list-date" className="block text-sm font-medium">
              {L.date}
            </label>
            <input id="day-list-date" type="date" className={inputClass} value={chosen} onChange={(e) => setChosen(e.target.value)} />
          </div>
          {chosen && (
            <button type="button" className={secondaryButton} onClick={() => setChosen('')}>
              {L.today}
            </button>
          )}
        </div>
      </div>
      {items === null ? (
        <Loading />
      ) : (
        dates.map((date) => <Day key={date} date={date} slots={dayList(items, date)} />)
      )}
      <p className="mt-6 hidden text-xs text-slate-600 print:block">{L.printedAt(stamp.format(new Date()))}</p>
    </div>
  );
}

function Day({ date, slots }: { date: string; slots: AdminBookedSlotDto[] }) {
  const heading = formatLongDate(date, 'de');
  return (
    <section className="day-list-day mb-8" aria-labelledby={`day-${date}`}>
      <h2 id={`day-${date}`} className="text-xl font-semibold">
        {heading} <span className="text-base font-normal text-slate-600">· {L.count(slots.length)}</span>
      </h2>
      {slots.length === 0 ? (
        <p className="mt-2 text-slate-600">{L.none}</p>
      ) : (
        <table className="mt-3 w-full border-collapse text-left text-sm">
          <caption className="sr-only">{L.caption(heading)}</caption>
          <thead>
            <tr className="border-b-2 border-slate-400">
              <th scope="col" className="w-24 px-2 py-1.5">
                {L.time}
              </th>
              <th scope="col" className="px-2 py-1.5">
                {L.type}
              </th>
              <th scope="col" className="px-2 py-1.5">
                {L.reference}
              </th>
              <th scope="col" className="px-2 py-1.5">
                {L.source}
              </th>
            </tr>
          </thead>
          <tbody>
            {slots.map((s) => (
              <tr key={s.id} className="border-b border-slate-200">
                <td className="px-2 py-1.5 font-medium tabular-nums">{s.appointment_time}</td>
                <td className="px-2 py-1.5">{s.type_name}</td>
                <td className="px-2 py-1.5 font-mono tracking-wider">{s.reference}</td>
                <td className="px-2 py-1.5">{labels.booked.sources[s.source] ?? s.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

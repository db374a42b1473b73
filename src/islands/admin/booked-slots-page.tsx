/**
 * Booked slots by date then time, with a type search, a date filter, three
 * counters and 'Slot freigeben' (SPEC.md §2, §8). Only type, date and time
 * exist to show: no patient data is stored.
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { berlinToday } from '../../lib/berlin-time';
import { formatShortDate } from '../../lib/dates';
import { adminApi, failureText, type AdminBookedSlotDto } from './admin-api';
import { labels } from './labels';
import { ConfirmButton, inputClass, ListTable, PageHeader, secondaryButton, useList } from './ui';
import { bookedCounters, filterBookedSlots } from './views';

const L = labels.booked;
const C = labels.common;

const createdAt = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

export function BookedSlotsPage() {
  const { items, reload } = useList(adminApi.booked.list, () => toast.error(C.error, { description: L.loadError }));
  const [search, setSearch] = useState('');
  const [date, setDate] = useState('');
  const today = berlinToday();
  const shown = filterBookedSlots(items ?? [], search, date);
  const counters = bookedCounters(shown, today);

  async function release(slot: AdminBookedSlotDto) {
    try {
      await adminApi.booked.remove(slot.id);
      toast.success(L.released);
      reload();
    } catch (error) {
      toast.error(C.deleteError, { description: failureText(error) ?? L.releaseError });
    }
  }

  const describe = (s: AdminBookedSlotDto) => `${s.type_name}, ${formatShortDate(s.appointment_date)} ${s.appointment_time} Uhr`;

  return (
    <>
      <PageHeader title={labels.nav['booked-slots']} intro={L.intro} />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <div className="min-w-56 flex-1">
          <label htmlFor="booked-search" className="block text-sm font-medium">
            {L.search}
          </label>
          <input id="booked-search" type="search" className={inputClass} value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div>
          <label htmlFor="booked-date" className="block text-sm font-medium">
            {L.date}
          </label>
          <input id="booked-date" type="date" className={inputClass} value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        {date && (
          <button type="button" className={secondaryButton} onClick={() => setDate('')}>
            {L.clearDate}
          </button>
        )}
      </div>
      <dl className="mb-6 grid gap-4 sm:grid-cols-3" aria-live="polite">
        {(
          [
            [L.shown, counters.shown],
            [L.today, counters.today],
            [L.days, counters.days],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-2xl font-bold">{items === null ? '–' : value}</dd>
          </div>
        ))}
      </dl>
      <ListTable loaded={items !== null} total={items?.length ?? 0} shown={shown.length} text={L} columns={[L.dateColumn, L.time, L.type, L.bookedAt, L.actions]}>
        {shown.map((s) => (
          <tr key={s.id}>
            <td className="px-3 py-2">{formatShortDate(s.appointment_date)}</td>
            <td className="px-3 py-2">{s.appointment_time}</td>
            <td className="px-3 py-2">{s.type_name}</td>
            <td className="px-3 py-2">{createdAt.format(new Date(s.created_at))}</td>
            <td className="px-3 py-2">
              <ConfirmButton
                label={L.release}
                accessibleLabel={L.releaseNamed(describe(s))}
                title={L.releaseTitle}
                text={L.releaseText(describe(s))}
                confirmLabel={L.release}
                onConfirm={() => release(s)}
              />
            </td>
          </tr>
        ))}
      </ListTable>
    </>
  );
}

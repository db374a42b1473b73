/**
 * Booked slots by date then time, with a type search, a date filter, three
 * counters, "Absagen" with a message to the patient (replacing the
 * earlier "Slot freigeben"), "Verschieben" and "Termin eintragen" for a caller
 * (source Telefon). Practice cancellations stay struck through until their
 * date has passed, with whether the patient was told. Each booking shows
 * its patient's name (birth date where two names match); opened, its phone
 * and email (docs/decisions/025). "Patient suchen" finds a caller's
 * bookings from today on; a hit opens its booking here.
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { UUID } from '../../../lib/admin-schemas';
import { berlinToday } from '../../../lib/berlin-time';
import { formatShortDate } from '../../../lib/dates';
import { adminApi, type AdminBookedSlotDto } from '../shared/admin-api';
import { patientNameText } from '../shared/patient-name';
import { labels } from '../shared/labels';
import { CancelBookingButton } from './cancel-booking-dialog';
import { NoticeStatus } from './notice-status';
import { MoveBookingButton } from './move-booking-dialog';
import { StaffBookingForm } from './staff-booking-form';
import { EditDialog, inputClass, ListTable, PageHeader, primaryButton, secondaryButton, useList } from '../shared/ui';
import { dateFromUrl } from './day-schedule';
import { bookedCounters, filterBookedSlots, germanDate, patientNames } from '../shared/views';
import { PatientSearch } from './patient-search';

const L = labels.booked;
const C = labels.common;

/** The booking a link opens (`?buchung=<id>`, from the practice's notification), if the value is an id. */
function bookingFromUrl(): string | null {
  const value = new URLSearchParams(window.location.search).get('buchung');
  return value && UUID.test(value) ? value.toLowerCase() : null;
}

function closeLinked(setLinked: (id: string | null) => void) {
  setLinked(null);
  const url = new URL(window.location.href);
  url.searchParams.delete('buchung');
  window.history.replaceState(window.history.state, '', url);
}

/**
 * Nine columns beside the open sidebar at 1280 px (about 970 px): narrow
 * padding, and "Buchungsnummer" may break after "Buchungs-" (a soft hyphen,
 * invisible unless it breaks), so "Verschieben" is never cut off.
 */
const COLUMNS = [L.dateColumn, L.time, L.patient, L.type, L.referenceColumn, L.source, L.status, L.bookedAt, L.actions];

const createdAt = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

export function BookedSlotsPage() {
  const { items, reload } = useList(adminApi.booked.list, () => toast.error(C.error, { description: L.loadError }));
  const types = useList(adminApi.types.list, () => toast.error(C.loadError));
  const [adding, setAdding] = useState<'new' | null>(null);
  const [search, setSearch] = useState('');
  // The dashboard links here with ?datum=, ?filter=unnotified (upcoming bookings the practice was not told of)
  // or ?filter=needs-call (upcoming bookings whose patient staff must call, docs/decisions/035).
  const [date, setDate] = useState(() => dateFromUrl() ?? '');
  const [filter, setFilter] = useState(() => {
    const value = new URLSearchParams(window.location.search).get('filter');
    return value === 'unnotified' || value === 'needs-call' ? value : null;
  });
  // The practice's notification links here with ?buchung=<id>: that booking alone, until "Alle Termine anzeigen".
  const [linked, setLinked] = useState(bookingFromUrl);
  const today = berlinToday();
  const shown = linked
    ? (items ?? []).filter((s) => s.id === linked)
    : filterBookedSlots(items ?? [], search, date).filter(
        (s) =>
          filter === null ||
          (s.appointment_date >= today && (filter === 'unnotified' ? !s.practice_notified : s.needs_call)),
      );
  const counters = bookedCounters(shown, today);
  const names = patientNames(shown, { unreadable: L.unreadable, none: L.noName, born: L.born });
  // The booking a search hit opened: its row shows its details and comes into view.
  const [opened, setOpened] = useState<string | null>(null);
  // Bookings whose contact details are shown (a row of their own under the booking): a linked or opened one at once.
  const [detailsOpen, setDetailsOpen] = useState<ReadonlySet<string>>(() => new Set(linked ? [linked] : []));
  useEffect(() => {
    if (opened) setDetailsOpen((open) => new Set(open).add(opened));
  }, [opened]);
  const toggleDetails = (id: string) =>
    setDetailsOpen((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  useEffect(() => {
    if (opened && items) document.getElementById(`booking-${opened}`)?.scrollIntoView?.({ block: 'center' });
  }, [opened, items]);

  const describe = (s: AdminBookedSlotDto) => `${s.type_name}, ${formatShortDate(s.appointment_date)} ${s.appointment_time} Uhr`;

  return (
    <>
      <PageHeader
        title={labels.nav['booked-slots']}
        intro={L.intro}
        action={
          <button type="button" className={primaryButton} onClick={() => setAdding('new')}>
            {L.add}
          </button>
        }
      />
      <PatientSearch
        onOpen={(hit) => {
          // The hit's day is shown, not the booking a notification's link had opened.
          if (linked) closeLinked(setLinked);
          setSearch('');
          setFilter(null);
          setDate(hit.appointment_date);
          setOpened(hit.id);
        }}
      />
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
        {filter && (
          <button type="button" className={secondaryButton} onClick={() => setFilter(null)}>
            {filter === 'unnotified' ? L.onlyUnnotified : L.onlyNeedsCall}
          </button>
        )}
      </div>
      {linked && (
        <div role="status" className="mb-4 flex flex-wrap items-center gap-3 rounded-md border border-brand-600 bg-brand-50 px-4 py-3 text-sm">
          <span className="flex-1">{items !== null && shown.length === 0 ? L.openedGone : L.openedOne}</span>
          <button type="button" className={secondaryButton} onClick={() => closeLinked(setLinked)}>
            {L.showAll}
          </button>
        </div>
      )}
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
            <dd className="mt-1 text-2xl font-bold">
              {items === null ? '–' : value}
              {label === L.shown && items !== null && counters.cancelled > 0 && (
                <span className="ml-2 text-sm font-normal text-slate-600">{L.shownCancelled(counters.cancelled)}</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      <ListTable
        loaded={items !== null}
        total={items?.length ?? 0}
        shown={shown.length}
        text={L}
        columns={COLUMNS}
        dense
      >
        {shown.map((s) => {
          const cancelled = s.status === 'cancelled_by_practice';
          const struck = cancelled ? 'line-through text-slate-500' : '';
          return [
            <tr
              key={s.id}
              id={`booking-${s.id}`}
              data-opened={s.id === linked ? 'true' : undefined}
              aria-label={cancelled ? `${describe(s)}: ${L.statusCancelled}` : undefined}
              className={opened === s.id ? 'bg-brand-50 outline outline-2 outline-brand-600' : undefined}
            >
              <td className={`px-2 py-2 ${struck}`}>{formatShortDate(s.appointment_date)}</td>
              <td className={`px-2 py-2 ${struck}`}>{s.appointment_time}</td>
              <td className="px-2 py-2" data-patient-state={s.patient_state}>
                <span className={s.patient ? 'font-medium' : 'italic text-slate-600'} title={s.patient_state === 'unreadable' ? L.unreadableHint : undefined}>
                  {s.patient_state === 'none' ? (patientNameText(s, today) ?? names.get(s)) : names.get(s)}
                </span>
                {s.patient && (
                  <button
                    type="button"
                    className="mt-1 block text-sm text-brand-700 underline"
                    aria-label={L.detailsOf(names.get(s)!)}
                    aria-expanded={detailsOpen.has(s.id)}
                    aria-controls={detailsOpen.has(s.id) ? `booking-details-${s.id}` : undefined}
                    onClick={() => toggleDetails(s.id)}
                  >
                    {L.details}
                  </button>
                )}
              </td>
              <td className={`px-2 py-2 ${struck}`}>{s.type_name}</td>
              <td className="px-2 py-2 font-mono tracking-wider">
                {s.reference}
                {!s.practice_notified && (
                  <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 font-sans text-xs font-semibold tracking-normal text-amber-900" title={L.unnotifiedHint}>
                    {L.unnotified}
                  </span>
                )}
              </td>
              <td className="px-2 py-2">{L.sources[s.source] ?? s.source}</td>
              <td className="px-2 py-2">
                {cancelled && <span className="block font-medium text-red-800">{L.statusCancelled}</span>}
                <NoticeStatus slot={s} />
              </td>
              <td className="px-2 py-2">{createdAt.format(new Date(s.created_at))}</td>
              <td className="px-2 py-2">
                {!cancelled && (
                  <div className="flex flex-wrap gap-2">
                    <MoveBookingButton slot={s} describe={describe(s)} onDone={reload} />
                    <CancelBookingButton slot={s} describe={describe(s)} onDone={reload} />
                  </div>
                )}
              </td>
            </tr>,
            s.patient && detailsOpen.has(s.id) && (
              // The contact details on a row of their own under the booking, the table's full width: an
              // email address reads on one line instead of breaking letter by letter in the patient column.
              <tr key={`${s.id}-details`} id={`booking-details-${s.id}`} data-details="" className={opened === s.id ? 'bg-brand-50' : 'bg-slate-50'}>
                <td colSpan={COLUMNS.length} className="px-2 pb-3 pt-1">
                  <span className="sr-only">{L.detailsOf(names.get(s)!)}:</span>
                  <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
                    <div className="flex gap-2">
                      <dt className="text-slate-600">{L.phone}</dt>
                      <dd>{s.patient.phone ? <a href={`tel:${s.patient.phone.replace(/[^\d+]/g, '')}`}>{s.patient.phone}</a> : L.noPhone}</dd>
                    </div>
                    <div className="flex min-w-0 gap-2">
                      <dt className="text-slate-600">E-Mail</dt>
                      <dd className="min-w-0 [overflow-wrap:anywhere]">{s.patient.email ?? L.noEmail}</dd>
                    </div>
                    {s.patient.birth_date && (
                      <div className="flex gap-2">
                        <dt className="text-slate-600">{L.born('').trim()}</dt>
                        <dd>{germanDate(s.patient.birth_date)}</dd>
                      </div>
                    )}
                    <div className="flex gap-2">
                      <dt className="text-slate-600">{L.language}</dt>
                      <dd>{L.languages[s.patient.language] ?? s.patient.language}</dd>
                    </div>
                  </dl>
                </td>
              </tr>
            ),
          ];
        })}
      </ListTable>
      <EditDialog editing={adding} setEditing={setAdding} onSaved={reload} labels={L}>
        {(_entity, done, cancel) => <StaffBookingForm types={types.items ?? []} onDone={done} onCancel={cancel} />}
      </EditDialog>
    </>
  );
}

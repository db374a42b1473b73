/**
 * One day of appointments for the front desk, as the day list and the week
 * view show and print it: the day's blocks first, then its bookings in time
 * order (time, patient, type, reference, source, status). The patient's name,
 * with the birth date and the phone number beside it, so the desk can tell
 * two namesakes apart and call without opening the booking, is shown to
 * staff only and printed on paper marked confidential (docs/decisions/025).
 * On paper a long day runs on over the next sheet with its date and its
 * column headings repeated: the table's head holds a row with the day's
 * heading, printed only, and the browser repeats a table's head on every
 * sheet the table continues on (src/components/admin/admin-page.astro;
 * docs/decisions/041-staff-messages-devices-printouts.md). The heading
 * above the table and the blocks' list then stay off paper: the first
 * body row, printed only, lists the blocks once. A booking the practice
 * cancelled stays, struck through, until its day has passed
 * (docs/decisions/021-appointment-contact-and-practice-changes.md); a booking inside a blocked time is marked.
 * A public holiday shows under the day's heading with its name and whether
 * online booking is closed (docs/decisions/039-public-holidays.md).
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { isRealDate } from '../../../lib/booking-schema';
import { formatLongDate } from '../../../lib/dates';
import { adminApi, type AdminBookedSlotDto, type BlockedDateDto, type HolidayDto } from '../shared/admin-api';
import { holidayLabels } from '../shared/holiday-labels';
import { berlinToday } from '../../../lib/berlin-time';
import { ArrivalCell } from './arrival';
import { NoticeStatus } from './notice-status';
import { labels } from '../shared/labels';
import { patientNameText } from '../shared/patient-name';
import { blocksOn, dayList, germanDate, inBlock, patientNames } from '../shared/views';

const L = labels.schedule;


const cancelled = (s: AdminBookedSlotDto) => s.status === 'cancelled_by_practice';

/** Booked or cancelled; whether the patient knows follows beneath (NoticeStatus). */
function statusText(s: AdminBookedSlotDto): string {
  return cancelled(s) ? L.cancelled : L.booked;
}

function blockText(b: BlockedDateDto): string {
  const when = b.start_time && b.end_time ? labels.blocked.range(b.start_time, b.end_time) : labels.blocked.wholeDay;
  return `${when}, ${b.type_name ?? labels.blocked.allTypes}${b.reason ? ` (${b.reason})` : ''}`;
}

export function DaySchedule({
  date,
  slots,
  blocks,
  durations,
  holidays = [],
  headingLevel = 2,
  arrival = false,
}: {
  date: string;
  /** Bookings of any dates; the day's are picked here. */
  slots: AdminBookedSlotDto[];
  /** Blocks of any dates; the day's are picked here. */
  blocks: BlockedDateDto[];
  /** Minutes per appointment type id, for whether a booking lies in a partial block. */
  durations: Map<string, number>;
  /** Holidays of any dates; the day's is picked here. */
  holidays?: HolidayDto[];
  headingLevel?: 2 | 3;
  /** The day list's "Ankunft" column: marks on today's bookings, shown on other days (docs/decisions/026). */
  arrival?: boolean;
}) {
  const today = berlinToday();
  const day = dayList(slots, date);
  // Every birth date stands beside its name here, so namesakes need no "(geb. …)" of their own.
  const names = patientNames(day, { unreadable: labels.booked.unreadable, none: labels.booked.noName });
  const dayBlocks = blocksOn(blocks, date);
  const holiday = holidays.find((h) => h.date === date);
  const standing = day.filter((s) => !cancelled(s)).length;
  const heading = formatLongDate(date, 'de');
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const countText = L.count(standing, day.length - standing);
  const columns = [L.time, L.patient, L.type, L.reference, L.source, L.status, ...(arrival ? [labels.arrival.column] : [])];
  // With a table, paper takes the heading (and the blocks) from the table, so a continued day says which day it is.
  const onPaperInTable = day.length > 0 ? 'print:hidden' : '';
  return (
    <section className="day-schedule mb-8 print:mb-4" aria-labelledby={`day-${date}`}>
      <Heading id={`day-${date}`} className={`text-xl font-semibold print:text-base ${onPaperInTable}`}>
        {heading} <span className="text-base font-normal text-slate-600 print:text-sm">· {countText}</span>
      </Heading>
      {holiday && (
        <p data-testid="day-holiday" className="mt-2 rounded-md border border-red-300 bg-red-50 px-3 py-1.5 text-sm font-medium text-red-950 print:border-black print:bg-transparent">
          {holidayLabels.line(holiday)}
        </p>
      )}
      {dayBlocks.length > 0 && (
        <ul className={`mt-2 space-y-1 ${onPaperInTable}`} aria-label={L.blocksOf(heading)}>
          {dayBlocks.map((b) => (
            <li
              key={b.id}
              className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-950 print:border-black print:bg-transparent"
            >
              <span className="font-semibold">{L.blocked}:</span> {blockText(b)}
            </li>
          ))}
        </ul>
      )}
      {day.length === 0 ? (
        <p className="mt-2 text-slate-600 print:hidden">{L.none}</p>
      ) : (
        // Stacked cards below 640 px like every back-office table (global.css .list-table); a table on paper.
        <div className="list-table mt-3">
          <table className="w-full border-collapse text-left text-sm print:text-xs">
            <caption className="sr-only">{L.caption(heading)}</caption>
            <thead>
              <tr className="day-print-only" data-print-heading>
                <th colSpan={columns.length} scope="colgroup" className="px-1 pb-1 pt-0 text-left text-base font-semibold">
                  {heading} <span className="text-sm font-normal">· {countText}</span>
                </th>
              </tr>
              <tr className="border-b-2 border-slate-400">
                {columns.map((column) => (
                  <th key={column} scope="col" className="px-2 py-1.5 print:px-1 print:py-0.5">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {dayBlocks.length > 0 && (
                <tr className="day-print-only">
                  <td colSpan={columns.length} className="px-1 py-0.5">
                    {dayBlocks.map((b) => (
                      <span key={b.id} className="mr-3 inline-block border border-black px-1">
                        <span className="font-semibold">{L.blocked}:</span> {blockText(b)}
                      </span>
                    ))}
                  </td>
                </tr>
              )}
              {day.map((s) => {
                const blocked = !cancelled(s) && inBlock(s, dayBlocks, durations.get(s.appointment_type_id) ?? 1);
                // Struck through but the status: what the appointment was stays readable beside why it is off.
                const struck = cancelled(s) ? 'line-through' : '';
                return (
                  <tr key={s.id} data-status={s.status} className={`border-b border-slate-200 ${cancelled(s) ? 'text-slate-600' : ''}`}>
                    <td data-label={L.time} className={`px-2 py-1.5 print:px-1 print:py-0.5 font-medium tabular-nums ${struck}`}>
                      {s.appointment_time}
                    </td>
                    <td
                      data-label={L.patient}
                      data-patient-state={s.patient_state}
                      className={`px-2 py-1.5 print:px-1 print:py-0.5 ${s.patient ? 'font-medium' : 'italic text-slate-600'} ${struck}`}
                    >
                      {/* A past day's details are gone at its end: "Name gelöscht" (docs/decisions/026). */}
                      {s.patient_state === 'none' ? (patientNameText(s, today) ?? names.get(s)) : names.get(s)}
                      {s.patient && ' '}
                      {s.patient && <PatientFacts birthDate={s.patient.birth_date} phone={s.patient.phone} />}
                    </td>
                    <td data-label={L.type} className={`px-2 py-1.5 print:px-1 print:py-0.5 ${struck}`}>
                      {s.type_name}
                    </td>
                    <td data-label={L.reference} className={`px-2 py-1.5 print:px-1 print:py-0.5 font-mono tracking-wider ${struck}`}>
                      {s.reference}
                    </td>
                    <td data-label={L.source} className={`px-2 py-1.5 print:px-1 print:py-0.5 ${struck}`}>
                      {labels.booked.sources[s.source] ?? s.source}
                    </td>
                    <td data-label={L.status} className="px-2 py-1.5 print:px-1 print:py-0.5">
                      {statusText(s)}
                      <NoticeStatus slot={s} />
                      {blocked && (
                        <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950 print:border print:border-black print:bg-transparent">
                          {L.inBlock}
                        </span>
                      )}
                    </td>
                    {arrival && (
                      <td data-label={labels.arrival.column} className="px-2 py-1.5 print:px-1 print:py-0.5">
                        <ArrivalCell slot={s} today={today} />
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Birth date and phone under the name: each kept whole on its line, the number a tap to call on a phone. */
function PatientFacts({ birthDate, phone }: { birthDate: string | null; phone: string | null }) {
  if (!birthDate && !phone) return null;
  return (
    <span className="block text-xs font-normal text-slate-700 print:text-black">
      {birthDate && <span className="whitespace-nowrap">{labels.booked.born(germanDate(birthDate))}</span>}
      {birthDate && phone && ' · '}
      {phone && (
        <span className="whitespace-nowrap">
          {L.phoneShort}{' '}
          <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className="underline print:no-underline">
            {phone}
          </a>
        </span>
      )}
    </span>
  );
}

export interface Schedule {
  slots: AdminBookedSlotDto[];
  blocks: BlockedDateDto[];
  durations: Map<string, number>;
  /** The range's holidays (docs/decisions/039-public-holidays.md). */
  holidays: HolidayDto[];
}

/**
 * The bookings of `from` … `to`, the blocks and the types' durations; null
 * while loading (or while the range is not known yet: `from` null). Reloads
 * when the range changes.
 */
export function useSchedule(from: string | null, to: string | null, loadError: string, view: 'day-list' | 'week' = 'day-list'): Schedule | null {
  const [schedule, setSchedule] = useState<Schedule | null>(null);
  useEffect(() => {
    let live = true;
    setSchedule(null);
    if (from === null || to === null) return;
    Promise.all([
      adminApi.booked.between(from, to, view),
      adminApi.blocked.list(),
      adminApi.types.list(),
      // Without the holidays the day still shows: they are a mark, not the schedule.
      adminApi.holidays(from, to).catch(() => [] as HolidayDto[]),
    ]).then(
      ([slots, blocks, types, holidays]) =>
        live &&
        setSchedule({
          slots,
          blocks,
          durations: new Map(types.map((t) => [t.id, t.slot_duration_minutes])),
          holidays,
        }),
      () => {
        if (!live) return;
        setSchedule({ slots: [], blocks: [], durations: new Map(), holidays: [] });
        toast.error(labels.common.error, { description: loadError });
      },
    );
    return () => {
      live = false;
    };
  }, [from, to, loadError, view]);
  return schedule;
}

/** A date from the page's address (`?datum=yyyy-MM-dd`, as the dashboard and the week view link), if it is one. */
export function dateFromUrl(): string | null {
  const value = new URLSearchParams(window.location.search).get('datum');
  return value && isRealDate(value) ? value : null;
}

/** Keeps the shown date in the address, so a reload or a shared link shows the same day or week. */
export function putDateInUrl(date: string | null): void {
  const url = new URL(window.location.href);
  if (date) url.searchParams.set('datum', date);
  else url.searchParams.delete('datum');
  window.history.replaceState(window.history.state, '', url);
}

const stamp = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

/**
 * "Stand: …" at the end of a printout, so paper says how current it is. The
 * confidentiality line and the page number stand on every sheet
 * (src/lib/print-page.ts).
 */
export function PrintedAt() {
  return (
    <footer className="mt-6 hidden text-xs text-slate-600 print:block">
      <p>{labels.dayList.printedAt(stamp.format(new Date()))}</p>
    </footer>
  );
}

/**
 * What reception reads of a request (docs/decisions/036-patient-requests.md):
 * the list's patient line, every field in the order the practice software
 * wants them, and the printout of the shown requests.
 */
import type { StaffRequestDto } from '../shared/admin-api';
import { requestLabels as L } from './request-labels';
import { displayPhone } from '../../../lib/phone';

const stamp = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
export const receivedText = (iso: string) => stamp.format(new Date(iso));
const germanDate = (iso: string) => iso.split('-').reverse().join('.');
const weekdayDate = new Intl.DateTimeFormat('de-DE', { weekday: 'short', day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });

/** The patient as the list names them: "Mustermann, Erika (geb. 12.08.1964)", or why there is no name. */
export function patientLine(row: StaffRequestDto): string {
  if (row.details) return `${row.details.last_name}, ${row.details.first_name} (${L.born(germanDate(row.details.birth_date))})`;
  return row.details_state === 'unreadable' ? L.detailsUnreadable : L.detailsDeleted;
}

export interface DetailRow {
  label: string;
  value: string;
  /** What the copy button copies (the value unless said). */
  copy?: string;
}

/** Every field of a request, in the order reception types them into the practice software. */
export function detailRows(row: StaffRequestDto): DetailRow[] {
  const d = row.details;
  if (!d) return [];
  const out: DetailRow[] = [
    { label: L.field.name, value: `${d.first_name} ${d.last_name}` },
    { label: L.field.birthDate, value: germanDate(d.birth_date) },
  ];
  if (d.medications) {
    d.medications.forEach((m, i) => out.push({ label: L.field.medication(i + 1), value: [m.name, m.strength, m.pack].filter(Boolean).join(' · '), copy: [m.name, m.strength, m.pack].filter(Boolean).join(' ') }));
  }
  if (d.insurance) out.push({ label: L.field.insurance, value: L.values[d.insurance] });
  if (d.delivery) out.push({ label: L.field.delivery, value: L.values[d.delivery] });
  if (d.delivery === 'card') out.push({ label: L.field.cardRead, value: d.card_read_this_quarter ? L.values.yes : L.values.no });
  if (d.specialty) out.push({ label: L.field.specialty, value: d.specialty });
  if (d.reason) out.push({ label: L.field.reason, value: d.reason });
  if (d.callback_date) out.push({ label: L.field.callbackDate, value: weekdayDate.format(new Date(`${d.callback_date}T12:00:00Z`)) });
  if (d.daypart) out.push({ label: L.field.daypart, value: L.values[d.daypart] });
  if (d.topic) out.push({ label: L.field.topic, value: d.topic });
  if (d.phone) out.push({ label: L.field.phone, value: displayPhone(d.phone) });
  out.push({ label: L.field.email, value: d.email });
  out.push({ label: L.field.language, value: L.values[d.language] });
  if (d.note) out.push({ label: L.field.note, value: d.note });
  return out;
}


/** The printout: every shown request with its details, for working through on paper. */
export function PrintedQueue({ rows, title }: { rows: StaffRequestDto[]; title: string }) {
  return (
    <section className="hidden print:block">
      <p className="requests-print-confidential font-semibold">{L.print.confidential}</p>
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="text-sm">{L.print.count(rows.length)}</p>
      {rows.map((row) => (
        <article key={row.id} className="requests-print-item mt-3 border-t border-black pt-2">
          <h2 className="font-semibold">
            {row.reference} · {L.kinds[row.kind]} · {receivedText(row.received_at)} · {L.statuses[row.status]}
          </h2>
          {row.details ? (
            <dl className="grid grid-cols-[11rem_1fr] gap-x-3 text-sm">
              {detailRows(row).map((d) => (
                <div key={d.label} className="contents">
                  <dt>{d.label}</dt>
                  <dd className="break-words whitespace-pre-line">{d.value}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="text-sm">{patientLine(row)}</p>
          )}
        </article>
      ))}
    </section>
  );
}

/**
 * The readable label an audit entry stores with its change (docs/decisions/020-reception.md): what a person recognises the thing by, as it was at the time
 * (a booking's reference, a type's or item's name, a colleague's email);
 * never anything a patient entered. Each kind has one function over what
 * its change returns, so an endpoint adds the label with one argument:
 *
 *   audited(db, session, { action: 'delete', entity: 'time-window', entityId: id, label: auditLabel.window }, (tx) => deleteTimeWindow(tx, id))
 */
import { contentFileLabel } from '../lib/content-files';
import { formatShortDate } from '../lib/short-date';

const WEEKDAYS = ['So', 'Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa'];
const range = (start: string, end: string) => `${start}–${end} Uhr`;

/** "Q2W3E4 (Check-up, 08.01.2030 09:00 Uhr)" */
function bookingLabel(b: { reference: string; type_name: string; appointment_date: string; appointment_time: string }): string {
  return `${b.reference} (${b.type_name}, ${formatShortDate(b.appointment_date)} ${b.appointment_time} Uhr)`;
}

export const auditLabel = {
  /** "Check-up" */
  type: (type: { name: string }) => type.name,
  /** "Check-up, Mo 09:00–12:00 Uhr" */
  window: (w: { type_name: string; day_of_week: number; start_time: string; end_time: string }) =>
    `${w.type_name}, ${WEEKDAYS[w.day_of_week]} ${range(w.start_time, w.end_time)}`,
  /** "24.12.2026, alle Terminarten" / "24.12.2026 10:00–12:00 Uhr, Check-up" */
  block: (b: { date: string; start_time: string | null; end_time: string | null; type_name: string | null }) =>
    `${formatShortDate(b.date)}${b.start_time && b.end_time ? ` ${range(b.start_time, b.end_time)}` : ''}, ${b.type_name ?? 'alle Terminarten'}`,
  /** "Q2W3E4 (Check-up, 08.01.2030 09:00 Uhr)" */
  booking: bookingLabel,
  /** "Q2W3E4 (Check-up, 08.01.2030 09:00 Uhr): erschienen" / "…: nicht erschienen" / "…: Ankunft zurückgenommen" */
  attendance: (b: { reference: string; type_name: string; appointment_date: string; appointment_time: string; attendance: 'arrived' | 'no_show' | null }) =>
    `${bookingLabel(b)}: ${b.attendance === 'arrived' ? 'erschienen' : b.attendance === 'no_show' ? 'nicht erschienen' : 'Ankunft zurückgenommen'}`,
  /** "EKG-Elektroden" */
  item: (item: { name: string }) => item.name,
  /** "kollegin@praxis.example" */
  user: (user: { email: string }) => user.email,
  /** "Startseite (Deutsch)", "Praxisangaben" (content editor) */
  page: contentFileLabel,
};

/** Labels are at most 200 characters (the column's check); a longer name is cut with an ellipsis. */
export function fitLabel(label: string | null | undefined): string | null {
  const text = label?.trim();
  if (!text) return null;
  return text.length <= 200 ? text : `${text.slice(0, 199)}…`;
}

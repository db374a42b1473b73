/**
 * Patient details for staff (docs/decisions/025): the appointment contact,
 * opened in memory for a staff answer (day list, week view, booked list,
 * an opened booking, the search), never stored or logged in clear.
 *
 * - Each answer that reveals names writes one audit row with the view and
 *   the count, never a value ("Tagesliste 27.11.2026 angesehen: 12 Patienten").
 * - A contact no configured key opens is "unreadable": the booking is shown
 *   and works, its details read "nicht lesbar".
 * - The search cannot run in SQL (the values are sealed): it opens the
 *   bounded set of today's and later contacts and compares in memory
 *   (names with German spellings folded, phone digits, birth dates and
 *   booking references: patient-match.server.ts).
 */
import { and, eq, gte, isNotNull } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentContacts, appointmentTypes, bookedSlots, cancelledBookings } from '../../../db/schema';
import { berlinToday } from '../../lib/berlin-time';
import type { Lang } from '../../i18n/languages';
import type { KeyRing } from '../appointment-contact/keys.server';
import { open, type ContactSecret, type Sealed } from '../appointment-contact/seal.server';
import { recordAudit, type AuditActor } from '../audit.server';
import type { BookingSource } from '../bookings/shared.server';
import { hhmm } from '../bookings/shared.server';
import { matcher } from './patient-match.server';

/** A booking's `patient` as staff see it. Empty values are null. */
export interface PatientDto {
  first_name: string;
  last_name: string;
  /** yyyy-mm-dd */
  birth_date: string | null;
  phone: string | null;
  email: string | null;
  language: Lang;
}

/**
 * Whether a row's details could be shown: `present`; `unreadable` (no
 * configured key opens them: "nicht lesbar"); `none` (deleted, or a booking
 * from before bookings kept details).
 */
export type PatientState = 'present' | 'unreadable' | 'none';

export function patientDto(secret: ContactSecret): PatientDto {
  return {
    first_name: secret.firstName,
    last_name: secret.lastName,
    birth_date: secret.birthDate || null,
    phone: secret.phone || null,
    email: secret.email || null,
    language: secret.language,
  };
}

/**
 * Opens the sealed contacts of an answer. A value that does not open counts
 * as unreadable; the kind of failure is logged once per answer, never a value.
 */
export function openAll<T extends { id: string; sealed: Sealed | null }>(
  rows: T[],
  keys: KeyRing | null,
): Array<T & { patient: PatientDto | null; patient_state: PatientState }> {
  let unreadable = 0;
  const opened = rows.map((row) => {
    if (!row.sealed) return { ...row, patient: null, patient_state: 'none' as const };
    try {
      if (!keys) throw new Error('no key configured');
      return { ...row, patient: patientDto(open(row.sealed, row.id, keys)), patient_state: 'present' as const };
    } catch {
      unreadable++;
      return { ...row, patient: null, patient_state: 'unreadable' as const };
    }
  });
  if (unreadable > 0) console.warn(`patient details not opened: ${unreadable} contact(s) under no configured key`);
  return opened;
}

/** dd.mm.yyyy, as staff read dates. */
export function germanDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}.${m}.${y}`;
}

/** Which staff view asked (GET /api/admin/booked-slots `?view=`); it names the audit row. */
export type DetailsView = 'day-list' | 'week' | 'booked-list' | 'booking';

const patients = (n: number) => (n === 1 ? '1 Patient' : `${n} Patienten`);

/** The audit label of an answer that revealed `count` patients' names. Never a value. */
export function viewLabel(view: DetailsView, range: { from?: string; to?: string }, count: number): string {
  const when = range.from && range.to ? (range.from === range.to ? germanDate(range.from) : `${germanDate(range.from)}–${germanDate(range.to)}`) : 'alle';
  const what = { 'day-list': 'Tagesliste', week: 'Wochenansicht', 'booked-list': 'Terminliste', booking: 'Termin' }[view];
  return `${what} ${when} angesehen: ${patients(count)}`;
}

/**
 * One audit row for an answer that revealed names (none when it revealed
 * none): the staff account, the view and the count.
 */
export async function auditReveal(db: Database, actor: AuditActor, view: DetailsView | 'search', label: string, count: number): Promise<void> {
  if (count === 0) return;
  await recordAudit(db, actor, { action: 'view', entity: 'patient-details', entityId: view, label });
}

/** One hit of "Patient suchen". */
export interface PatientHit {
  id: string;
  reference: string;
  appointment_date: string;
  appointment_time: string;
  appointment_type_id: string;
  type_name: string;
  source: BookingSource;
  first_name: string;
  last_name: string;
  birth_date: string | null;
  /** A booking the practice cancelled still shows until its day ends, with whether staff must call (docs/decisions/035). */
  status: 'booked' | 'cancelled_by_practice';
  needs_call: boolean;
  phone: string | null;
}

/**
 * GET /api/admin/patients?q=: today's and later live bookings whose patient
 * (name, birth date, phone) or reference matches, by date and time. Opens at most the contacts of today and later
 * (the set the day-end deletion keeps small); nothing is kept.
 */
export async function searchPatients(db: Database, q: string, keys: KeyRing | null, now: Date = new Date()): Promise<PatientHit[]> {
  const today = berlinToday(now);
  const [live, cancelled] = await Promise.all([
    db
      .select({
        id: bookedSlots.id,
        reference: bookedSlots.reference,
        appointment_date: bookedSlots.appointmentDate,
        appointment_time: bookedSlots.appointmentTime,
        appointment_type_id: bookedSlots.appointmentTypeId,
        type_name: appointmentTypes.name,
        source: bookedSlots.source,
        notified: bookedSlots.patientNotified,
        keyId: appointmentContacts.keyId,
        sealed: appointmentContacts.sealed,
        at: bookedSlots.createdAt,
      })
      .from(bookedSlots)
      .innerJoin(appointmentContacts, eq(appointmentContacts.bookingId, bookedSlots.id))
      .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
      .where(gte(bookedSlots.appointmentDate, today)),
    // The practice's cancellations keep the contact on their tombstone until the day's end, so staff find whom to call.
    db
      .select({
        id: cancelledBookings.id,
        reference: cancelledBookings.reference,
        appointment_date: cancelledBookings.appointmentDate,
        appointment_time: cancelledBookings.appointmentTime,
        appointment_type_id: cancelledBookings.appointmentTypeId,
        type_name: appointmentTypes.name,
        source: cancelledBookings.source,
        notified: cancelledBookings.patientNotified,
        keyId: cancelledBookings.contactKeyId,
        sealed: cancelledBookings.contactSealed,
        at: cancelledBookings.cancelledAt,
      })
      .from(cancelledBookings)
      .innerJoin(appointmentTypes, eq(appointmentTypes.id, cancelledBookings.appointmentTypeId))
      .where(and(gte(cancelledBookings.appointmentDate, today), eq(cancelledBookings.cancelledBy, 'practice'), isNotNull(cancelledBookings.contactSealed))),
  ]);
  const rows = [
    ...live.map((r) => ({ ...r, status: 'booked' as const })),
    ...cancelled.map((r) => ({ ...r, keyId: r.keyId!, sealed: r.sealed!, status: 'cancelled_by_practice' as const })),
  ].sort(
    (a, b) =>
      a.appointment_date.localeCompare(b.appointment_date) || a.appointment_time.localeCompare(b.appointment_time) || a.at.getTime() - b.at.getTime(),
  );
  if (!keys) return [];
  const matches = matcher(q);
  const hits: PatientHit[] = [];
  for (const row of rows) {
    let secret: ContactSecret;
    try {
      secret = open({ keyId: row.keyId, sealed: row.sealed }, row.id, keys);
    } catch {
      continue;
    }
    if (!matches({ reference: row.reference, firstName: secret.firstName, lastName: secret.lastName, birthDate: secret.birthDate, phone: secret.phone })) continue;
    hits.push({
      id: row.id,
      reference: row.reference,
      appointment_date: row.appointment_date,
      appointment_time: hhmm(row.appointment_time),
      appointment_type_id: row.appointment_type_id,
      type_name: row.type_name,
      source: row.source as BookingSource,
      first_name: secret.firstName,
      last_name: secret.lastName,
      birth_date: secret.birthDate || null,
      status: row.status,
      needs_call: !row.notified,
      phone: secret.phone || null,
    });
  }
  return hits;
}

/**
 * Booked slots as the back office sees them: type, date,
 * time, source, reference, status and whether practice and patient were
 * told. Practice cancellations show as struck-through rows until their date
 * has passed. The cancellation token hash never leaves the database; the
 * appointment contact is opened for staff only (docs/decisions/025). Staff
 * bookings (phone) go through the same insert as online ones, with their
 * contact (src/server/bookings/create.server.ts), under staff rules.
 */
import { and, asc, between, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentContacts, appointmentTypes, bookedSlots, cancelledBookings } from '../../../db/schema';
import type { KeyRing } from '../appointment-contact/keys.server';
import { openAll, patientDto, type PatientDto, type PatientState } from './patient-details.server';
import type { Attendance, BookedSlotsQuery, StaffBookingInput } from '../../lib/admin-schemas';
import { createBooking, type CreatedBooking } from '../bookings/create.server';
import type { BookingSource } from '../bookings/shared.server';
import { sendPhoneBookingConfirmation } from '../email/senders.server';
import { hhmm } from '../bookings/shared.server';

export type BookingStatus = 'booked' | 'cancelled_by_practice';

export interface AdminBookedSlotDto {
  id: string;
  appointment_type_id: string;
  type_name: string;
  appointment_date: string;
  appointment_time: string;
  source: BookingSource;
  reference: string;
  /** False when the practice's notification email failed: an unknown patient is to be expected. */
  practice_notified: boolean;
  status: BookingStatus;
  /**
   * False when a practice-side change (cancel, move) reached the patient by
   * no email: staff call them ("bitte telefonisch informieren").
   */
  patient_notified: boolean;
  /** Arrival on the appointment's day (docs/decisions/026); null when not marked, and for a practice cancellation. */
  attendance: Attendance;
  created_at: string;
  /** The patient's details (docs/decisions/025); null when deleted, unreadable or never kept. */
  patient: PatientDto | null;
  /** Why `patient` is null, or `present`: `unreadable` shows as "nicht lesbar". */
  patient_state: PatientState;
}

/**
 * Live bookings and practice cancellations, by date, then time; only `from`
 * … `to` (inclusive) when a range is given (the week view, the day list).
 */
export async function listBookedSlots(db: Database, range: BookedSlotsQuery = {}, keys: KeyRing | null = null): Promise<AdminBookedSlotDto[]> {
  const within = (column: typeof bookedSlots.appointmentDate | typeof cancelledBookings.appointmentDate) =>
    range.from && range.to ? between(column, range.from, range.to) : undefined;
  const [live, cancelled] = await Promise.all([
    db
      .select({
        id: bookedSlots.id,
        appointment_type_id: bookedSlots.appointmentTypeId,
        type_name: appointmentTypes.name,
        appointment_date: bookedSlots.appointmentDate,
        appointment_time: bookedSlots.appointmentTime,
        source: bookedSlots.source,
        reference: bookedSlots.reference,
        practice_notified: bookedSlots.practiceNotified,
        patient_notified: bookedSlots.patientNotified,
        attendance: bookedSlots.attendance,
        created_at: bookedSlots.createdAt,
        keyId: appointmentContacts.keyId,
        sealedValue: appointmentContacts.sealed,
      })
      .from(bookedSlots)
      .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
      .leftJoin(appointmentContacts, eq(appointmentContacts.bookingId, bookedSlots.id))
      .where(within(bookedSlots.appointmentDate)),
    db
      .select({
        id: cancelledBookings.id,
        appointment_type_id: cancelledBookings.appointmentTypeId,
        type_name: appointmentTypes.name,
        appointment_date: cancelledBookings.appointmentDate,
        appointment_time: cancelledBookings.appointmentTime,
        source: cancelledBookings.source,
        reference: cancelledBookings.reference,
        patient_notified: cancelledBookings.patientNotified,
        created_at: cancelledBookings.cancelledAt,
      })
      .from(cancelledBookings)
      .innerJoin(appointmentTypes, eq(appointmentTypes.id, cancelledBookings.appointmentTypeId))
      // The patient's own cancellations leave a tombstone only for their link (docs/decisions/029): not a practice cancellation.
      .where(and(within(cancelledBookings.appointmentDate), eq(cancelledBookings.cancelledBy, 'practice')))
      .orderBy(asc(cancelledBookings.appointmentDate)),
  ]);
  const opened = openAll(
    live.map(({ keyId, sealedValue, ...r }) => ({ ...r, sealed: keyId && sealedValue ? { keyId, sealed: sealedValue } : null })),
    keys,
  ).map(({ sealed: _sealed, ...r }) => r);
  const rows: AdminBookedSlotDto[] = [
    ...opened.map((r) => ({ ...r, status: 'booked' as const })),
    ...cancelled.map((r) => ({ ...r, practice_notified: true, attendance: null, status: 'cancelled_by_practice' as const, patient: null, patient_state: 'none' as const })),
  ].map((r) => ({
    ...r,
    source: r.source as BookingSource,
    attendance: r.attendance as Attendance,
    appointment_time: hhmm(r.appointment_time),
    created_at: r.created_at.toISOString(),
  }));
  return rows.sort(
    (a, b) =>
      a.appointment_date.localeCompare(b.appointment_date) ||
      a.appointment_time.localeCompare(b.appointment_time) ||
      a.type_name.localeCompare(b.type_name, 'de') ||
      a.created_at.localeCompare(b.created_at),
  );
}

/**
 * A seat taken by staff for a caller ("Termin eintragen", source phone):
 * the same guarantee as an online booking, staff rules (up to 365 days
 * ahead), no limits; the caller's details sealed in the booking's contact
 * by the same statement; a token (and link) only with an email. Runs inside
 * the audit's transaction; the confirmation goes after the commit.
 */
export async function createStaffBooking(db: Database, input: StaffBookingInput, keys: KeyRing, now: Date = new Date()): Promise<StaffBooking> {
  const secret = {
    firstName: input.first_name,
    lastName: input.last_name,
    phone: input.phone,
    birthDate: input.birth_date ?? '',
    email: input.email ?? '',
    language: input.language,
  };
  const created = await createBooking(db, input, { source: 'phone', now, contact: { secret, keys, reminder: false } });
  const [row] = await db.select({ createdAt: bookedSlots.createdAt }).from(bookedSlots).where(eq(bookedSlots.id, created.booking.id));
  return {
    id: created.booking.id,
    appointment_type_id: created.booking.appointment_type_id,
    type_name: created.type.name,
    appointment_date: created.booking.appointment_date,
    appointment_time: created.booking.appointment_time,
    source: created.booking.source,
    reference: created.booking.reference,
    practice_notified: true,
    status: 'booked',
    patient_notified: true,
    attendance: null,
    created_at: row!.createdAt.toISOString(),
    patient: patientDto({ ...secret, token: '' }),
    patient_state: 'present',
    created,
  };
}

/** What the handler needs after the commit: the row and the booking for the confirmation email. */
export type StaffBooking = AdminBookedSlotDto & { created: CreatedBooking };

/**
 * After the commit: a phone booking with an email gets the online
 * booking's confirmation (with .ics and link) in the chosen language.
 * Without one, or when it fails, nobody is emailed and the row says so
 * (`patient_notified` false): staff call the number shown.
 */
export async function notifyStaffBooking(db: Database, booked: StaffBooking): Promise<AdminBookedSlotDto> {
  const { created, ...row } = booked;
  const patient = row.patient!;
  if (!patient.email || !created.token) return row;
  const sent = await sendPhoneBookingConfirmation({
    bookingId: created.booking.id,
    token: created.token,
    reference: created.booking.reference,
    type: created.type,
    date: created.booking.appointment_date,
    time: created.booking.appointment_time,
    patient: { first_name: patient.first_name, last_name: patient.last_name, birth_date: patient.birth_date ?? '', phone: patient.phone ?? '', email: patient.email },
    language: patient.language,
  });
  if (!sent) await db.update(bookedSlots).set({ patientNotified: false }).where(eq(bookedSlots.id, row.id));
  return { ...row, patient_notified: sent };
}

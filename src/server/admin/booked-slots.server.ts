/**
 * Booked slots as the back office sees them: type, date,
 * time, source, reference, status and whether practice and patient were
 * told. Practice cancellations show as struck-through rows until their date
 * has passed. The cancellation token hash never leaves the database; the
 * appointment contact is opened for staff only (docs/decisions/025). Staff
 * bookings (phone) go through the same insert as online ones, with their
 * contact (src/server/bookings/create.server.ts), under staff rules.
 */
import { and, asc, between, eq, sql, type Column, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentContacts, appointmentTypes, bookedSlots, cancelledBookings } from '../../../db/schema';
import type { KeyRing } from '../appointment-contact/keys.server';
import { openAll, patientDto, type PatientDto, type PatientState } from './patient-details.server';
import type { Attendance, BookedSlotsQuery } from '../../lib/admin-schemas';
import type { StaffBookingInput } from '../../lib/staff-booking-schema';
import { createBooking, type CreatedBooking } from '../bookings/create.server';
import type { BookingSource } from '../bookings/shared.server';
import { bookingConfirmationEmail } from '../email/senders.server';
import { confirmationSms } from '../sms/notices.server';
import { enqueueSms } from '../sms/queue.server';
import { hhmm } from '../bookings/shared.server';
import type { InformedMark } from './informed.server';

export type BookingStatus = 'booked' | 'cancelled_by_practice';

export type PatientNotice = 'none' | 'pending' | 'sent' | 'delivered' | 'bounced' | 'failed' | 'sms_sent' | 'sms_failed';

/** Which channel tells the patient (docs/decisions/043-sms-second-channel.md): the latest message on its way or arrived; `none` when none is. */
export type PatientChannelState = 'email' | 'sms' | 'none';

/**
 * The latest message to the patient about the booking whose id is
 * `bookingId`, as one status: an email's (a complaint counts as bounced),
 * or an SMS's (`sms_sent` once handed over or delivered, `sms_failed`).
 * A fallback SMS is queued in the same instant its email gives up, and
 * always comes after that email: on equal times it counts as the later.
 */
export function patientNoticeSql(bookingId: SQL | Column): SQL<string | null> {
  return sql<string | null>`(select case
      when o.channel = 'sms' and o.status in ('sent', 'delivered') then 'sms_sent'
      when o.channel = 'sms' and o.status in ('failed', 'bounced', 'complained') then 'sms_failed'
      when o.status = 'complained' then 'bounced'
      else o.status end
    from email_outbox o where o.booking_id = ${bookingId} and o.audience = 'patient'
    order by o.created_at desc, o.fallback_of is not null desc limit 1)`;
}

/** The channel of the latest message to the patient that is on its way or arrived, or null. */
export function patientChannelSql(bookingId: SQL | Column): SQL<string | null> {
  return sql<string | null>`(select o.channel from email_outbox o
    where o.booking_id = ${bookingId} and o.audience = 'patient' and o.status in ('pending', 'sent', 'delivered')
    order by o.created_at desc, o.fallback_of is not null desc limit 1)`;
}

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
   * False when a change reached the patient by no email (a practice-side
   * cancel or move without an address) or an email to them bounced or
   * finally failed: staff call them until they mark the patient reached.
   */
  patient_notified: boolean;
  /** The state of the latest message to the patient about this booking (docs/decisions/035, 043); `none` when none was queued. */
  patient_notice: PatientNotice;
  /** Which channel told (or is telling) the patient: `email`, `sms`, or `none` when no message is on its way or arrived. */
  patient_channel: PatientChannelState;
  /** Staff must call the patient ("bitte anrufen"): `!patient_notified`. */
  needs_call: boolean;
  /** "Patient erreicht": who marked it (a staff account's email) and when; null when not marked or a call is needed again (docs/decisions/041). */
  informed: InformedMark | null;
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
        informed_at: bookedSlots.informedAt,
        informed_by: bookedSlots.informedBy,
        patient_notice: patientNoticeSql(bookedSlots.id),
        patient_channel: patientChannelSql(bookedSlots.id),
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
        informed_at: cancelledBookings.informedAt,
        informed_by: cancelledBookings.informedBy,
        patient_notice: patientNoticeSql(cancelledBookings.id),
        patient_channel: patientChannelSql(cancelledBookings.id),
        // Kept on the tombstone until the day's end so staff can call (docs/decisions/035).
        keyId: cancelledBookings.contactKeyId,
        sealedValue: cancelledBookings.contactSealed,
      })
      .from(cancelledBookings)
      .innerJoin(appointmentTypes, eq(appointmentTypes.id, cancelledBookings.appointmentTypeId))
      // The patient's own cancellations leave a tombstone only for their link (docs/decisions/029): not a practice cancellation.
      .where(and(within(cancelledBookings.appointmentDate), eq(cancelledBookings.cancelledBy, 'practice')))
      .orderBy(asc(cancelledBookings.appointmentDate)),
  ]);
  const opened = <T extends { keyId: string | null; sealedValue: string | null }>(rows: Array<T & { id: string }>) =>
    openAll(
      rows.map(({ keyId, sealedValue, ...r }) => ({ ...r, sealed: keyId && sealedValue ? { keyId, sealed: sealedValue } : null })),
      keys,
    ).map(({ sealed: _sealed, ...r }) => r);
  const rows: AdminBookedSlotDto[] = [
    ...opened(live).map((r) => ({ ...r, status: 'booked' as const })),
    ...opened(cancelled).map((r) => ({ ...r, practice_notified: true, attendance: null, status: 'cancelled_by_practice' as const })),
  ].map(({ informed_at, informed_by, ...r }) => ({
    ...r,
    informed: r.patient_notified && informed_at && informed_by ? { by: informed_by, at: informed_at.toISOString() } : null,
    source: r.source as BookingSource,
    attendance: r.attendance as Attendance,
    appointment_time: hhmm(r.appointment_time),
    created_at: r.created_at.toISOString(),
    patient_notice: (r.patient_notice ?? 'none') as PatientNotice,
    patient_channel: (r.patient_channel ?? 'none') as PatientChannelState,
    needs_call: !r.patient_notified,
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
 * by the same statement; a token (and link) only with an email, and then
 * the online booking's confirmation (with .ics and link, in the chosen
 * language) queued by that statement too. Runs inside the audit's
 * transaction; the confirmation goes after the answer.
 */
export async function createStaffBooking(db: Database, input: StaffBookingInput, keys: KeyRing, now: Date = new Date()): Promise<StaffBooking> {
  const secret = {
    firstName: input.first_name,
    lastName: input.last_name,
    phone: input.phone,
    birthDate: input.birth_date ?? '',
    email: input.email ?? '',
    language: input.language,
    // "SMS an diese Nummer erlaubt": checked to be a mobile number by the action (docs/decisions/043-sms-second-channel.md).
    ...(input.sms ? { sms: true } : {}),
  };
  const slot = { date: input.appointment_date, time: input.appointment_time };
  const created = await createBooking(db, input, {
    source: 'phone',
    confirmHoliday: input.confirm_holiday === true,
    now,
    contact: { secret, keys, reminder: false },
    emails: ({ id, reference, token, type }) =>
      token && input.email
        ? [
            {
              ...bookingConfirmationEmail({
                bookingId: id,
                token,
                reference,
                type,
                ...slot,
                patient: { first_name: input.first_name, last_name: input.last_name, birth_date: input.birth_date ?? '', phone: input.phone, email: input.email },
                language: input.language,
              }),
              // The same confirmation by SMS, should the email not arrive.
              sms: confirmationSms({ contact: { ...secret, token }, bookingId: id, ...slot }),
            },
          ]
        : [],
  });
  // Without an email address the confirmation goes by SMS where agreed: date, time, the practice's phone (no link: no token).
  const sms = input.email ? null : confirmationSms({ contact: { ...secret, token: '' }, bookingId: created.booking.id, ...slot });
  if (sms) await enqueueSms(db, [sms], keys, now);
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
    patient_notice: input.email || sms ? 'pending' : 'none',
    patient_channel: input.email ? 'email' : sms ? 'sms' : 'none',
    needs_call: false,
    informed: null,
    attendance: null,
    created_at: row!.createdAt.toISOString(),
    patient: patientDto({ ...secret, token: '' }),
    patient_state: 'present',
    created,
  };
}

/** The new row as the answer shows it (201). */
export type StaffBooking = AdminBookedSlotDto & { created: CreatedBooking };

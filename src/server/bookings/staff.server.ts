/**
 * Staff's changes to a booking (docs/decisions/021-appointment-contact-and-practice-changes.md): "Absagen"
 * and "Verschieben". Each runs inside the audit's transaction (the handler's
 * `audited`), which commits the change with its audit row; the patient's
 * email goes after the commit, from the contact read in the transaction,
 * and only then is the booking marked as notified. So a failed or lost email
 * never undoes the change and always shows as "bitte telefonisch
 * informieren" (patient_notified false).
 */
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { bookedSlots, cancelledBookings } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { KeyRing } from '../appointment-contact/keys.server';
import type { ContactSecret } from '../appointment-contact/seal.server';
import { openContact, sealedContact } from '../appointment-contact/store.server';
import { sendPatientNotice } from '../email/senders.server';
import { findById, type BookingView } from './lookup.server';
import { moveLockedBooking, sendMoveNotice, type MovedBooking } from './move.server';
import { hasBegun } from './shared.server';

export interface PracticeCancelled {
  booking: BookingView;
  /** The opened contact; null for a phone booking or when none could be read: staff call the patient. */
  contact: ContactSecret | null;
}

/**
 * Cancels a booking locked by `tx` as the practice: a tombstone keeps its
 * id, reference, type, date, time and token hash (no seat, no contact) so
 * the link answers 410 until the date has passed; the booking row goes, and
 * with it, by the foreign key, its contact, read and opened just before.
 */
export async function cancelLockedAsPractice(tx: Executor, booking: BookingView, keys: KeyRing | null): Promise<PracticeCancelled> {
  const contact = openContact(await sealedContact(tx, booking.id), booking.id, keys);
  await tx.insert(cancelledBookings).values({
    id: booking.id,
    appointmentTypeId: booking.appointment_type_id,
    appointmentDate: booking.appointment_date,
    appointmentTime: booking.appointment_time,
    cancellationTokenHash: booking.cancellation_token_hash,
    source: booking.source,
    reference: booking.reference,
    patientNotified: false,
  });
  await tx.delete(bookedSlots).where(eq(bookedSlots.id, booking.id));
  return { booking, contact };
}

/** The booking staff act on, locked: 404 unknown, 409 already cancelled by the practice or begun. */
async function lockedForStaff(tx: Database, id: string, now: Date): Promise<BookingView> {
  const booking = await findById(tx, id, true);
  if (!booking) {
    const [tombstone] = await tx.select({ id: cancelledBookings.id }).from(cancelledBookings).where(eq(cancelledBookings.id, id));
    if (tombstone) throw new AppError('conflict', 'This appointment has already been cancelled.');
    throw new AppError('not-found', 'Unknown booked slot.');
  }
  if (hasBegun(booking.appointment_date, booking.appointment_time, now)) {
    throw new AppError('too-late', 'This appointment has already begun and can no longer be changed.');
  }
  return booking;
}

/** "Absagen" (POST /api/admin/booked-slots/:id/cancel), inside the audit's transaction. */
export async function staffCancel(tx: Database, id: string, keys: KeyRing | null, now: Date = new Date()): Promise<PracticeCancelled> {
  return cancelLockedAsPractice(tx, await lockedForStaff(tx, id, now), keys);
}

/** "Verschieben" (POST /api/admin/booked-slots/:id/move) under staff rules, inside the audit's transaction. */
export async function staffMove(
  tx: Database,
  id: string,
  target: { date: string; time: string },
  keys: KeyRing | null,
  now: Date = new Date(),
): Promise<MovedBooking> {
  const booking = await lockedForStaff(tx, id, now);
  const moved = await moveLockedBooking(tx, booking, target, { now, rules: 'staff', keys });
  // Not notified until the email has gone (after the commit).
  await tx.update(bookedSlots).set({ patientNotified: false }).where(eq(bookedSlots.id, id));
  return moved;
}

/**
 * After the commit: the patient's cancellation email (with the practice's
 * message, never stored), then the tombstone marked notified. False when no
 * email went out.
 */
export async function notifyCancelledByPractice(db: Database, cancelled: PracticeCancelled, message?: string): Promise<boolean> {
  const { booking, contact } = cancelled;
  if (!contact) return false;
  const sent = await sendPatientNotice({
    kind: 'cancelled-by-practice',
    contact,
    bookingId: booking.id,
    reference: booking.reference,
    type: { name: booking.type_name, nameEn: booking.type_name_en, slotDurationMinutes: booking.slot_duration_minutes },
    date: booking.appointment_date,
    time: booking.appointment_time,
    sequence: booking.sequence + 1,
    ...(message ? { message } : {}),
  });
  if (sent) await db.update(cancelledBookings).set({ patientNotified: true }).where(eq(cancelledBookings.id, booking.id));
  return sent;
}

/** After the commit: the patient's email with the new time (and the practice's message, never stored), then the booking marked notified. */
export async function notifyMovedByPractice(db: Database, moved: MovedBooking, message?: string): Promise<boolean> {
  const sent = await sendMoveNotice('moved-by-practice', moved, message);
  if (sent) await db.update(bookedSlots).set({ patientNotified: true }).where(eq(bookedSlots.id, moved.booking.id));
  return sent;
}

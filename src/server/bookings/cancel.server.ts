/**
 * The patient's own cancellation through the emailed link (GET/POST
 * /api/bookings/cancel): shows the appointment, then deletes the booking,
 * which frees its seat, and its contact. The contact is read and opened
 * first in the same transaction: the patient's confirmation and the
 * practice's notice are queued from those values in that transaction (docs/decisions/021-appointment-contact-and-practice-changes.md). Like a practice cancellation, it leaves a tombstone, so the
 * link answers 410 cancelled-by-patient, not "unknown", until the date has
 * passed (docs/decisions/029; lookup.server.ts).
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { bookedSlots, cancelledBookings } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { KeyRing } from '../appointment-contact/keys.server';
import type { ContactSecret } from '../appointment-contact/seal.server';
import { openContact, sealedContact } from '../appointment-contact/store.server';
import { enqueueEmails, withdrawQueuedReminder, type QueuedEmail } from '../email/queue.server';
import { findByToken, throwUnknownLink, type BookingView } from './lookup.server';
import { hasBegun } from './shared.server';

const UNKNOWN = 'This cancellation link is unknown or was already used.';

function tooLate(): AppError {
  return new AppError('too-late', 'This appointment has already begun and can no longer be cancelled online.');
}

/** The appointment a cancellation link points to: 404 unknown, 410 cancelled (by the practice or the patient), 409 once begun. */
export async function bookingForCancellation(db: Database, token: string, now: Date = new Date()): Promise<BookingView> {
  const booking = await findByToken(db, token);
  if (!booking) return throwUnknownLink(db, token, now, UNKNOWN);
  if (hasBegun(booking.appointment_date, booking.appointment_time, now)) throw tooLate();
  return booking;
}

export interface CancelledByPatient {
  booking: BookingView;
  /** The opened contact, for the patient's confirmation; null when none could be read. */
  contact: ContactSecret | null;
}

/**
 * Cancels the appointment and frees its slot; a second use of the link finds
 * the tombstone (410 cancelled-by-patient). `notices`: the emails the
 * cancellation promises, queued in its transaction (docs/decisions/035).
 */
export async function cancelBooking(
  db: Database,
  token: string,
  keys: KeyRing | null,
  now: Date = new Date(),
  notices: (cancelled: CancelledByPatient) => QueuedEmail[] = () => [],
): Promise<CancelledByPatient> {
  return db.transaction(async (tx) => {
    const booking = await findByToken(tx, token, true);
    if (!booking) return throwUnknownLink(tx, token, now, UNKNOWN);
    if (hasBegun(booking.appointment_date, booking.appointment_time, now)) throw tooLate();
    const contact = openContact(await sealedContact(tx, booking.id), booking.id, keys);
    await tx.insert(cancelledBookings).values({
      id: booking.id,
      appointmentTypeId: booking.appointment_type_id,
      appointmentDate: booking.appointment_date,
      appointmentTime: booking.appointment_time,
      cancellationTokenHash: booking.cancellation_token_hash,
      source: booking.source,
      reference: booking.reference,
      patientNotified: true,
      cancelledBy: 'patient',
    });
    // The booking goes, and with it (foreign key) its contact: the notices queued below carry what they need, sealed.
    await tx.delete(bookedSlots).where(eq(bookedSlots.id, booking.id));
    await withdrawQueuedReminder(tx, booking.id);
    const cancelled = { booking, contact };
    await enqueueEmails(tx, notices(cancelled), keys ?? undefined, now);
    return cancelled;
  });
}

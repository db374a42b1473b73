/**
 * Staff's changes to a booking (docs/decisions/021, 035): "Absagen" and
 * "Verschieben". Each runs inside the audit's transaction (the handler's
 * `audited`), which commits the change with its audit row and the
 * patient's email, queued in the outbox from the contact read in the same
 * transaction. So the change never stands without its email, and where no
 * email can go (no address, a contact no key opens) the booking says so
 * (patient_notified false: "bitte anrufen") until staff mark the patient
 * reached. A practice cancellation keeps the sealed contact on its tombstone
 * until the end of the appointment's day, so staff can call.
 */
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { bookedSlots, cancelledBookings } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { KeyRing } from '../appointment-contact/keys.server';
import type { ContactSecret } from '../appointment-contact/seal.server';
import { openContact, sealedContact } from '../appointment-contact/store.server';
import { enqueueEmails, withdrawQueuedReminder } from '../email/queue.server';
import { noteFreedSeat } from '../waitlist/free-times.server';
import { patientNoticeEmail, patientNoticeSms } from '../email/senders.server';
import { enqueueSms } from '../sms/queue.server';
import { findById, type BookingView } from './lookup.server';
import { moveLockedBooking, moveNoticeEmail, moveNoticeSms, type MovedBooking } from './move.server';
import { hasBegun } from './shared.server';
import { refuseUnconfirmedDetails, typeTerms } from '../admin/message-check.server';

/** How a patient hears of a change: an email (with its SMS fallback where agreed), an SMS (no email address), or a call by staff. */
export type PatientChannel = 'email' | 'sms' | 'call';

export interface PracticeCancelled {
  booking: BookingView;
  /** The opened contact; null for a phone booking or when none could be read: staff call the patient. */
  contact: ContactSecret | null;
  /** Whether a message to the patient was queued, email or SMS (false: staff call). */
  emailed: boolean;
  channel: PatientChannel;
}

/**
 * Cancels a booking locked by `tx` as the practice: a tombstone keeps its
 * id, reference, type, date, time and token hash (no seat) so the link
 * answers 410 until the date has passed; the booking row goes; the
 * tombstone keeps the sealed contact until the day's end (so staff can
 * call), and the patient's email with the practice's message is queued in
 * the same transaction.
 */
export async function cancelLockedAsPractice(
  tx: Executor,
  booking: BookingView,
  keys: KeyRing | null,
  message?: string,
  now: Date = new Date(),
): Promise<PracticeCancelled> {
  const sealed = await sealedContact(tx, booking.id);
  const contact = openContact(sealed, booking.id, keys);
  const input = contact
    ? {
        kind: 'cancelled-by-practice' as const,
        contact,
        bookingId: booking.id,
        reference: booking.reference,
        type: { name: booking.type_name, nameEn: booking.type_name_en, slotDurationMinutes: booking.slot_duration_minutes },
        date: booking.appointment_date,
        time: booking.appointment_time,
        sequence: booking.sequence + 1,
        ...(message ? { message } : {}),
      }
    : null;
  const notice = input ? patientNoticeEmail(input) : null;
  // No email address: the SMS, where the patient agreed to it (docs/decisions/043-sms-second-channel.md).
  const sms = input && keys ? patientNoticeSms(input) : null;
  const channel: PatientChannel = notice ? 'email' : sms ? 'sms' : 'call';
  await tx.insert(cancelledBookings).values({
    id: booking.id,
    appointmentTypeId: booking.appointment_type_id,
    appointmentDate: booking.appointment_date,
    appointmentTime: booking.appointment_time,
    cancellationTokenHash: booking.cancellation_token_hash,
    source: booking.source,
    reference: booking.reference,
    patientNotified: channel !== 'call',
    contactKeyId: sealed?.keyId ?? null,
    contactSealed: sealed?.sealed ?? null,
  });
  // The booking row goes, and with it (foreign key) the contact row and its reminder; the tombstone keeps the sealed copy.
  await tx.delete(bookedSlots).where(eq(bookedSlots.id, booking.id));
  // The waitlist learns when the time became free (docs/decisions/038-waitlist-offers-for-freed-times.md); a block's own times stay blocked.
  await noteFreedSeat(tx, { typeId: booking.appointment_type_id, date: booking.appointment_date, time: booking.appointment_time }, now);
  await withdrawQueuedReminder(tx, booking.id);
  if (notice) await enqueueEmails(tx, [notice], keys ?? undefined, now);
  if (sms && keys) await enqueueSms(tx, [sms], keys, now);
  return { booking, contact, emailed: channel !== 'call', channel };
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

/** The practice's message to the patient, and whether staff confirmed it names the type (docs/decisions/041). */
export interface StaffMessage {
  message?: string;
  confirm?: boolean;
}

/** "Absagen" (POST /api/admin/booked-slots/:id/cancel), inside the audit's transaction. */
export async function staffCancel(tx: Database, id: string, keys: KeyRing | null, { message, confirm }: StaffMessage = {}, now: Date = new Date()): Promise<PracticeCancelled> {
  const booking = await lockedForStaff(tx, id, now);
  refuseUnconfirmedDetails(message, typeTerms(booking), confirm);
  return cancelLockedAsPractice(tx, booking, keys, message, now);
}

/** "Verschieben" (POST /api/admin/booked-slots/:id/move) under staff rules, inside the audit's transaction, with the patient's email. */
export async function staffMove(
  tx: Database,
  id: string,
  target: { date: string; time: string },
  keys: KeyRing | null,
  { message, confirm }: StaffMessage = {},
  now: Date = new Date(),
  confirmHoliday = false,
): Promise<MovedBooking & { emailed: boolean; channel: PatientChannel }> {
  const booking = await lockedForStaff(tx, id, now);
  refuseUnconfirmedDetails(message, typeTerms(booking), confirm);
  const moved = await moveLockedBooking(tx, booking, target, { now, rules: 'staff', keys, confirmHoliday });
  const notice = moveNoticeEmail('moved-by-practice', moved, message);
  const sms = notice || !keys ? null : moveNoticeSms('moved-by-practice', moved, message);
  if (notice) await enqueueEmails(tx, [notice], keys ?? undefined, now);
  if (sms && keys) await enqueueSms(tx, [sms], keys, now);
  const channel: PatientChannel = notice ? 'email' : sms ? 'sms' : 'call';
  // Nobody to email or text: staff call ("bitte anrufen") until they mark the patient reached.
  // A call needed again clears an earlier "Patient erreicht" (docs/decisions/041).
  await tx
    .update(bookedSlots)
    .set(channel !== 'call' ? { patientNotified: true } : { patientNotified: false, informedAt: null, informedBy: null })
    .where(eq(bookedSlots.id, id));
  return { ...moved, emailed: channel !== 'call', channel };
}

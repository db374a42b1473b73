/**
 * Moving a booking to another time of its type: the patient's reschedule
 * through the emailed link (POST /api/bookings/reschedule), and the
 * step every move shares with staff's "Verschieben" (staff.server.ts).
 *
 * One transaction: the booking's row is locked, every rule is re-checked
 * (the pure module, then the SQL guard of a new booking: blocked, window,
 * capacity by seat + unique index + trigger), the row takes the new time's
 * lowest free seat (its old seat is freed by the same UPDATE), its calendar
 * SEQUENCE goes up and its reminder follows. Anything failing rolls
 * everything back: the old time stays booked.
 */
import type { Database, Executor } from '../../../db/client';
import type { AppointmentTypeRow } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { KeyRing } from '../appointment-contact/keys.server';
import type { ContactSecret } from '../appointment-contact/seal.server';
import { followMove, openContact, sealedContact } from '../appointment-contact/store.server';
import { findByToken, throwUnknownLink, type BookingView } from './lookup.server';
import { patientNoticeEmail, patientNoticeSms } from '../email/senders.server';
import type { SmsPlan } from '../sms/queue.server';
import { enqueueEmails, type QueuedEmail } from '../email/queue.server';
import { noteFreedSeat } from '../waitlist/free-times.server';
import { hasBegun, sameTime, slotUnavailable, type BookingRules } from './shared.server';
import { checkedRules, moveSeat } from './slot-sql.server';

export interface MovedBooking {
  booking: { id: string; appointment_type_id: string; appointment_date: string; appointment_time: string; reference: string };
  /** Where it was. */
  old: { date: string; time: string };
  type: AppointmentTypeRow;
  /** The calendar event's SEQUENCE after the move. */
  sequence: number;
  /** The opened contact, for the patient's email; null for a phone booking or when none could be read. */
  contact: ContactSecret | null;
}

/**
 * Moves a booking locked by `tx` to (date, time) under the given rules:
 * 409 slot-unavailable with its reason when the new time cannot be taken or
 * is the booking's own time. The caller has checked that it has not begun.
 */
export async function moveLockedBooking(
  tx: Executor,
  booking: BookingView,
  target: { date: string; time: string },
  options: { now: Date; rules: BookingRules; keys: KeyRing | null; confirmHoliday?: boolean },
): Promise<MovedBooking> {
  const { date, time } = target;
  if (booking.appointment_date === date && booking.appointment_time === time) throw sameTime();
  const typeId = booking.appointment_type_id;
  // Only staff may move onto a closed day, and only when they confirmed it (docs/decisions/039-public-holidays.md).
  const confirmHoliday = options.rules === 'staff' && options.confirmHoliday === true;
  const loaded = await checkedRules(tx, typeId, date, time, options.now, options.rules, { confirmHoliday });
  // Paused online: the link still cancels, but only the practice moves it.
  if (options.rules === 'online' && !loaded.type.onlineBookable) throw slotUnavailable('unknown-type');
  const result = await moveSeat(tx, booking.id, typeId, date, time, confirmHoliday);
  if ('rejected' in result) throw slotUnavailable(result.rejected, { date, rules: options.rules });
  // The old time's seat is free: the waitlist learns when (docs/decisions/038-waitlist-offers-for-freed-times.md).
  await noteFreedSeat(tx, { typeId, date: booking.appointment_date, time: booking.appointment_time }, options.now);
  await followMove(tx, booking.id, date, time, options.now);
  const contact = openContact(await sealedContact(tx, booking.id), booking.id, options.keys);
  return {
    booking: { id: booking.id, appointment_type_id: typeId, appointment_date: date, appointment_time: time, reference: booking.reference },
    old: { date: booking.appointment_date, time: booking.appointment_time },
    type: loaded.type,
    sequence: result.booked.sequence,
    contact,
  };
}

/**
 * POST /api/bookings/reschedule: 404 unknown token, 410 cancelled by the
 * practice, 409 too-late once the current appointment has begun, 409
 * slot-unavailable when the new time cannot be booked or is its own time.
 */
export async function rescheduleBooking(
  db: Database,
  request: { token: string; appointment_date: string; appointment_time: string },
  keys: KeyRing | null,
  now: Date = new Date(),
  notices: (moved: MovedBooking) => QueuedEmail[] = () => [],
): Promise<MovedBooking> {
  return db.transaction(async (tx) => {
    const booking = await findByToken(tx, request.token, true);
    if (!booking) return throwUnknownLink(tx, request.token, now, 'This link is unknown or the appointment was cancelled.');
    if (hasBegun(booking.appointment_date, booking.appointment_time, now)) {
      throw new AppError('too-late', 'This appointment has already begun and can no longer be moved online.');
    }
    const moved = await moveLockedBooking(tx, booking, { date: request.appointment_date, time: request.appointment_time }, { now, rules: 'online', keys });
    // The emails the move promises, in its transaction (docs/decisions/035).
    await enqueueEmails(tx, notices(moved), keys ?? undefined, now);
    return moved;
  });
}

/** The patient's email about a move (their own, or by the practice): the new time and the .ics; null when nobody can be emailed. */
export function moveNoticeEmail(kind: 'moved' | 'moved-by-practice', moved: MovedBooking, message?: string): QueuedEmail | null {
  if (!moved.contact) return null;
  return patientNoticeEmail(moveNoticeInput(kind, moved, message)!);
}

/** The same by SMS, for a patient without an email address who agreed to SMS (docs/decisions/043-sms-second-channel.md). */
export function moveNoticeSms(kind: 'moved' | 'moved-by-practice', moved: MovedBooking, message?: string): SmsPlan | null {
  const input = moveNoticeInput(kind, moved, message);
  return input ? patientNoticeSms(input) : null;
}

function moveNoticeInput(kind: 'moved' | 'moved-by-practice', moved: MovedBooking, message?: string) {
  if (!moved.contact) return null;
  return {
    kind,
    contact: moved.contact,
    bookingId: moved.booking.id,
    reference: moved.booking.reference,
    type: moved.type,
    date: moved.booking.appointment_date,
    time: moved.booking.appointment_time,
    old: moved.old,
    sequence: moved.sequence,
    ...(message ? { message } : {}),
  };
}

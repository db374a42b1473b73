/**
 * A new booking: online (the wizard) or by staff (source phone), each with
 * its sealed appointment contact (docs/decisions/025).
 *
 * Round trips (after the connection is open): an uncontended online booking
 * is two: one read of the type's rules, checked by the pure module, then
 * one statement that inserts only if the date is still not blocked, the
 * time still a start time of a window and a seat is free, writes the
 * booking's contact and counts the abuse limits, all in the same statement.
 * A single statement is atomic, so no BEGIN/COMMIT is needed, and a booking
 * never exists without its contact.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../db/client';
import type { AppointmentTypeRow } from '../../../db/schema';
import type { KeyRing } from '../appointment-contact/keys.server';
import type { ContactSecret } from '../appointment-contact/seal.server';
import { newContact } from '../appointment-contact/store.server';
import { prepareEmail, type QueuedEmail } from '../email/queue.server';
import type { RateLimitHit } from '../rate-limit.server';
import { hashToken, hhmm, newCancellationToken, slotUnavailable, type BookingRules, type BookingSource } from './shared.server';
import { checkedRules, insertBooking } from './slot-sql.server';

export interface SlotRequest {
  /** Canonical (lower-case) uuid: the shared schemas lower-case it. */
  appointment_type_id: string;
  appointment_date: string;
  appointment_time: string;
}

export interface CreatedBooking {
  booking: {
    id: string;
    appointment_type_id: string;
    appointment_date: string;
    appointment_time: string;
    reference: string;
    source: BookingSource;
  };
  type: AppointmentTypeRow;
  /** The only copy of the token besides the sealed contact: it goes into the patient's email. Null for a phone booking without email. */
  token: string | null;
}

/** A booking's contact (docs/decisions/021, 025): what to seal, the keys, and whether a reminder is wanted. */
export interface ContactRequest {
  secret: Omit<ContactSecret, 'token'>;
  keys: KeyRing;
  reminder: boolean;
}

/**
 * POST /api/bookings (online, with its contact) and staff bookings (phone):
 * two round trips when uncontended. First the type's rules for the date
 * (the pure module re-checks every rule the picker showed: past, advance
 * limit, blocked, window, DST, passed time), then insertBooking, which
 * re-checks in SQL what may have changed meanwhile (blocked, windows,
 * capacity), writes the contact and counts the abuse limits.
 */
export async function createBooking(
  db: Database,
  slot: SlotRequest,
  options: {
    now?: Date;
    limits?: RateLimitHit[];
    /** Required for an online booking; a phone booking has one too (name and phone at least). */
    contact?: ContactRequest;
    /**
     * `phone`: a staff booking (no limits, staff rules; a token and link only when the caller gave an email),
     * run inside the audit's transaction.
     */
    source?: BookingSource;
    /** Staff confirmed a closed day (a public holiday): booked all the same (docs/decisions/039-public-holidays.md). */
    confirmHoliday?: boolean;
    /**
     * The emails the booking promises (docs/decisions/035), built for the
     * booking's id, reference and token; sealed with the contact's keys and
     * queued by the booking's own statement.
     */
    emails?: (booking: { id: string; reference: string; token: string | null; type: AppointmentTypeRow }) => QueuedEmail[];
  } = {},
): Promise<CreatedBooking> {
  const source = options.source ?? 'online';
  const rules: BookingRules = source === 'phone' ? 'staff' : 'online';
  const now = options.now ?? new Date();
  const date = slot.appointment_date;
  const time = slot.appointment_time;
  const typeId = slot.appointment_type_id.toLowerCase();
  // Only staff may book a closed day, and only when they confirmed it.
  const confirmHoliday = rules === 'staff' && options.confirmHoliday === true;
  const loaded = await checkedRules(db, typeId, date, time, now, rules, { confirmHoliday });
  // Paused online: staff may still book it, patients may not.
  if (rules === 'online' && !loaded.type.onlineBookable) throw slotUnavailable('unknown-type');
  const id = randomUUID();
  // A phone booking without an email has no link: nobody could receive it.
  const token = source === 'online' || options.contact?.secret.email ? newCancellationToken() : null;
  const contact = options.contact
    ? newContact(id, { ...options.contact.secret, token: token ?? '' }, options.contact.keys, { date, time, reminder: options.contact.reminder }, now)
    : undefined;
  const emails = options.emails;
  const keys = options.contact?.keys;
  if (emails && !keys) throw new Error('queued emails need the contact keys');
  const result = await insertBooking(db, {
    id,
    emails: emails && keys ? (reference) => emails({ id, reference, token, type: loaded.type }).map((e) => prepareEmail(e, keys)) : undefined,
    typeId,
    date,
    time,
    tokenHash: token === null ? null : hashToken(token),
    source,
    confirmHoliday,
    contact,
    limits: source === 'online' ? options.limits : undefined,
    inTransaction: source === 'phone',
    now,
  });
  if ('rejected' in result) throw slotUnavailable(result.rejected, { date, rules });
  return {
    booking: {
      id: result.booked.id,
      appointment_type_id: result.booked.appointmentTypeId,
      appointment_date: result.booked.appointmentDate,
      appointment_time: hhmm(result.booked.appointmentTime),
      reference: result.booked.reference,
      source: result.booked.source,
    },
    type: loaded.type,
    token,
  };
}

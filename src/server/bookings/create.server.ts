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
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client';
import { bookedSlots, type AppointmentTypeRow } from '../../../db/schema';
import type { KeyRing } from '../appointment-contact/keys.server';
import type { ContactSecret } from '../appointment-contact/seal.server';
import { contactCte, newContact, type NewContact } from '../appointment-contact/store.server';
import { asRateLimited, databaseError, hitCte, purgeCte, withinLimitCheck, type RateLimitHit } from '../rate-limit.server';
import {
  hashToken,
  hhmm,
  newCancellationToken,
  rowsOf,
  slotUnavailable,
  type BookingRules,
  type BookingSource,
  type Executor,
} from './shared.server';
import {
  bookedReturning,
  checkedRules,
  lostSeat,
  MAX_SEAT_ATTEMPTS,
  outcomeColumns,
  seatOutcome,
  slotCtes,
  type SeatResult,
  type SeatStatementRow,
} from './slot-sql.server';

export interface SlotRequest {
  /** Canonical (lower-case) uuid: the shared schemas lower-case it. */
  appointment_type_id: string;
  appointment_date: string;
  appointment_time: string;
}

export interface InsertBookingInput {
  /** The new row's id; drawn here when absent. A contact is sealed for it beforehand. */
  id?: string;
  typeId: string;
  date: string;
  /** HH:mm */
  time: string;
  /** SHA-256 of the cancellation token; null for a phone booking without email, which has no link. */
  tokenHash: string | null;
  /** `online` (default) or `phone` (a staff booking). */
  source?: BookingSource;
  /** The booking's sealed contact, written by the same statement. */
  contact?: NewContact;
  /** Abuse limits counted in the same statement (online bookings); none for staff. */
  limits?: RateLimitHit[];
  /**
   * Set when `db` is a transaction (a staff booking with its audit entry):
   * every attempt runs under a savepoint, so a lost race does not abort the
   * surrounding transaction.
   */
  inTransaction?: boolean;
  now?: Date;
}

/** A drawn reference that is taken (1 in ~887 million per stored booking) draws again. */
const MAX_REFERENCE_ATTEMPTS = 5;

/**
 * The one statement that books a seat: it inserts only if the type exists,
 * the time is not blocked (for the type or for all), the time is a start
 * time of one of the weekday's windows and a seat is free, taking the lowest
 * free seat; it writes the contact of the row it inserted; the abuse limits
 * are counted in the same statement and abort it when exceeded.
 */
function insertStatement(id: string, input: InsertBookingInput, now: Date): SQL {
  const { typeId, date, time, tokenHash } = input;
  const source = input.source ?? 'online';
  const limits = input.limits ?? [];
  const hitCtes = limits.map((hit, i) => sql`, ${sql.raw(`hit${i}`)} as (${hitCte(hit, now, sql`seat`)})`);
  const checks = limits.map((hit, i) => sql`${withinLimitCheck(hit, sql.raw(`hit${i}`))} as ${sql.raw(`within${i}`)}, `);
  const contact = input.contact ? sql`, contact as (${contactCte(input.contact)})` : sql``;
  return sql`
    with ${slotCtes(typeId, date, time)}${sql.join(hitCtes, sql``)},
    booked as (
      insert into booked_slots (id, appointment_type_id, appointment_date, appointment_time, seat, cancellation_token_hash, source)
      select ${id}::uuid, ${typeId}::uuid, ${date}::date, ${time}::time, seat.seat, ${tokenHash}, ${source} from seat
      ${bookedReturning}
    )${contact},
    purge as (${purgeCte(now, limits)})
    select
      ${sql.join(checks, sql``)}
      ${outcomeColumns(typeId, date, time)}`;
}

/**
 * Books the lowest free seat of (type, date, time) in one statement (one
 * round trip when uncontended), or says why not. Throws 429 when a limit
 * in `limits` is exceeded; then nothing was written.
 */
export async function insertBooking(db: Executor, input: InsertBookingInput): Promise<SeatResult> {
  const now = input.now ?? new Date();
  const statement = insertStatement(input.id ?? randomUUID(), input, now);
  const run = async (): Promise<SeatStatementRow[]> =>
    input.inTransaction
      ? (db as Transaction).transaction(async (savepoint) => rowsOf<SeatStatementRow>(await savepoint.execute(statement)))
      : rowsOf<SeatStatementRow>(await db.execute(statement));
  let referenceAttempts = 0;
  for (let attempt = 1; ; attempt++) {
    let row: SeatStatementRow | undefined;
    try {
      [row] = await run();
    } catch (error) {
      const e = databaseError(error);
      // The drawn reference is taken: the next run draws a new one (the column default).
      if (e?.code === '23505' && e.constraint === 'booked_slots_reference_idx' && ++referenceAttempts < MAX_REFERENCE_ATTEMPTS) {
        attempt--;
        continue;
      }
      // Lost the race for the seat: look again.
      if (lostSeat(error) && attempt < MAX_SEAT_ATTEMPTS) continue;
      if (lostSeat(error)) return { rejected: 'full' };
      // The type was deleted while the statement ran.
      if (e?.code === '23503') return { rejected: 'unknown-type' };
      throw asRateLimited(error, rateLimitDetail);
    }
    return seatOutcome(row);
  }
}

function rateLimitDetail(bucket: string): string {
  return bucket.startsWith('confirmation')
    ? 'Too many confirmation emails to this address today. Please try again later or call us.'
    : 'Too many bookings from this address. Please try again later or call us.';
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
  } = {},
): Promise<CreatedBooking> {
  const source = options.source ?? 'online';
  const rules: BookingRules = source === 'phone' ? 'staff' : 'online';
  const now = options.now ?? new Date();
  const date = slot.appointment_date;
  const time = slot.appointment_time;
  const typeId = slot.appointment_type_id.toLowerCase();
  const loaded = await checkedRules(db, typeId, date, time, now, rules);
  // Paused online: staff may still book it, patients may not.
  if (rules === 'online' && !loaded.type.onlineBookable) throw slotUnavailable('unknown-type');
  const id = randomUUID();
  // A phone booking without an email has no link: nobody could receive it.
  const token = source === 'online' || options.contact?.secret.email ? newCancellationToken() : null;
  const contact = options.contact
    ? newContact(id, { ...options.contact.secret, token: token ?? '' }, options.contact.keys, { date, time, reminder: options.contact.reminder }, now)
    : undefined;
  const result = await insertBooking(db, {
    id,
    typeId,
    date,
    time,
    tokenHash: token === null ? null : hashToken(token),
    source,
    contact,
    limits: source === 'online' ? options.limits : undefined,
    inTransaction: source === 'phone',
    now,
  });
  if ('rejected' in result) throw slotUnavailable(result.rejected);
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

/**
 * The practice's notification of a booking failed: mark the booking so the
 * list and the dashboard show that an unknown patient is to be expected.
 * One extra statement, only in that failure case.
 */
export async function markPracticeNotNotified(db: Database, bookingId: string): Promise<void> {
  await db.update(bookedSlots).set({ practiceNotified: false }).where(eq(bookedSlots.id, bookingId));
}

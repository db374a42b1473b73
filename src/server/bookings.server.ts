/**
 * Availability and bookings against the database. The rules themselves are
 * the pure functions of src/lib/availability.ts; this module only loads
 * their inputs and makes the booking atomic.
 *
 * Capacity guarantee: a booking takes a transaction-scoped advisory lock on
 * its (type, date, time) before counting, so concurrent bookings of the same
 * slot run one after another and the count each one sees includes every
 * booking committed before it; bookings of other slots do not wait. The type
 * row is read FOR SHARE so an admin cannot delete it mid-booking.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { appointmentTimeSlots, appointmentTypes, blockedDates, bookedSlots, type AppointmentTypeRow } from '../../db/schema';
import {
  availabilityForRange,
  slotKey,
  timeRejection,
  type AvailabilityInput,
  type DayAvailability,
} from '../lib/availability';
import { berlinInstant, berlinWallClock } from '../lib/berlin-time';
import { AppError } from '../lib/errors';
import type { KeyRing } from './reminders/keys.server';
import type { ReminderSecret } from './reminders/seal.server';
import { insertReminder } from './reminders/store.server';

type Executor = Database | Transaction;

const hhmm = (time: string) => time.slice(0, 5);

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** 256 random bits, URL-safe (DESIGN.md: at least 128 bits, only the hash is kept). */
export function newCancellationToken(): string {
  return randomBytes(32).toString('base64url');
}

async function loadInput(
  db: Executor,
  type: AppointmentTypeRow,
  from: string,
  to: string,
  now: Date,
  inTransaction: boolean,
): Promise<AvailabilityInput> {
  const windowsQuery = () =>
    db
      .select({
        dayOfWeek: appointmentTimeSlots.dayOfWeek,
        startTime: appointmentTimeSlots.startTime,
        endTime: appointmentTimeSlots.endTime,
      })
      .from(appointmentTimeSlots)
      .where(eq(appointmentTimeSlots.appointmentTypeId, type.id))
      .orderBy(asc(appointmentTimeSlots.dayOfWeek), asc(appointmentTimeSlots.startTime));
  const blockedQuery = () =>
    db
      .select({ date: blockedDates.date })
      .from(blockedDates)
      .where(
        and(
          gte(blockedDates.date, from),
          lte(blockedDates.date, to),
          or(isNull(blockedDates.appointmentTypeId), eq(blockedDates.appointmentTypeId, type.id)),
        ),
      );
  const countsQuery = () =>
    db
      .select({
        date: bookedSlots.appointmentDate,
        time: bookedSlots.appointmentTime,
        count: sql<number>`count(*)::int`,
      })
      .from(bookedSlots)
      .where(
        and(
          eq(bookedSlots.appointmentTypeId, type.id),
          gte(bookedSlots.appointmentDate, from),
          lte(bookedSlots.appointmentDate, to),
        ),
      )
      .groupBy(bookedSlots.appointmentDate, bookedSlots.appointmentTime);
  // A transaction owns one connection, which runs one query at a time; a pool can run them side by side.
  const [windows, blocked, counts] = inTransaction
    ? [await windowsQuery(), await blockedQuery(), await countsQuery()]
    : await Promise.all([windowsQuery(), blockedQuery(), countsQuery()]);
  return {
    type,
    windows,
    blockedDates: blocked.map((b) => b.date),
    bookings: new Map(counts.map((c) => [slotKey(c.date, hhmm(c.time)), Number(c.count)])),
    now,
  };
}

export interface AvailabilityResponse {
  timezone: 'Europe/Berlin';
  type: string;
  days: DayAvailability[];
}

export async function getAvailability(
  db: Database,
  query: { type: string; from: string; to: string },
  now: Date = new Date(),
): Promise<AvailabilityResponse> {
  const [type] = await db.select().from(appointmentTypes).where(eq(appointmentTypes.id, query.type));
  if (!type) throw new AppError('not-found', 'Unknown consultation type.');
  const input = await loadInput(db, type, query.from, query.to, now, false);
  return { timezone: 'Europe/Berlin', type: type.id, days: availabilityForRange(query.from, query.to, input) };
}

export interface SlotRequest {
  appointment_type_id: string;
  appointment_date: string;
  appointment_time: string;
}

export interface CreatedBooking {
  booking: { id: string; appointment_type_id: string; appointment_date: string; appointment_time: string };
  type: AppointmentTypeRow;
  /** The only copy of the token: it goes into the patient's email, never the database. */
  token: string;
}

/** The patient asked for a reminder (DESIGN.md, Reminders): what to seal, and the keys. */
export interface ReminderRequest {
  secret: Omit<ReminderSecret, 'token'>;
  keys: KeyRing;
}

export async function createBooking(
  db: Database,
  slot: SlotRequest,
  now: Date = new Date(),
  reminder?: ReminderRequest,
): Promise<CreatedBooking> {
  const date = slot.appointment_date;
  const time = slot.appointment_time;
  const token = newCancellationToken();
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`${slot.appointment_type_id} ${date} ${time}`}, 727003))`,
    );
    const [type] = await tx
      .select()
      .from(appointmentTypes)
      .where(eq(appointmentTypes.id, slot.appointment_type_id))
      .for('share');
    if (!type) throw new AppError('slot-unavailable', 'This consultation type is not offered (any more).');
    const input = await loadInput(tx, type, date, date, now, true);
    const rejection = timeRejection(date, time, input);
    if (rejection) throw new AppError('slot-unavailable', slotUnavailableDetail(rejection));
    const [row] = await tx
      .insert(bookedSlots)
      .values({ appointmentTypeId: type.id, appointmentDate: date, appointmentTime: time, cancellationTokenHash: hashToken(token) })
      .returning();
    if (reminder) {
      const secret = { ...reminder.secret, token };
      await insertReminder(tx, { bookingId: row!.id, date, time, secret, keys: reminder.keys }, now);
    }
    return {
      booking: {
        id: row!.id,
        appointment_type_id: row!.appointmentTypeId,
        appointment_date: row!.appointmentDate,
        appointment_time: hhmm(row!.appointmentTime),
      },
      type,
      token,
    };
  });
}

function slotUnavailableDetail(rejection: string): string {
  switch (rejection) {
    case 'full':
      return 'This time has just been booked by someone else.';
    case 'passed':
      return 'This time has already passed.';
    case 'not-a-slot':
      return 'This is not a bookable start time for this consultation type.';
    default:
      return 'This date cannot be booked for this consultation type.';
  }
}

export interface BookingByToken {
  id: string;
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  appointment_date: string;
  appointment_time: string;
  slot_duration_minutes: number;
}

async function findByToken(db: Executor, token: string, lock = false): Promise<BookingByToken | null> {
  const query = db
    .select({
      id: bookedSlots.id,
      appointment_type_id: bookedSlots.appointmentTypeId,
      type_name: appointmentTypes.name,
      type_name_en: appointmentTypes.nameEn,
      appointment_date: bookedSlots.appointmentDate,
      appointment_time: bookedSlots.appointmentTime,
      slot_duration_minutes: appointmentTypes.slotDurationMinutes,
    })
    .from(bookedSlots)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
    .where(eq(bookedSlots.cancellationTokenHash, hashToken(token)));
  const [row] = lock ? await query.for('update', { of: bookedSlots }) : await query;
  return row ? { ...row, appointment_time: hhmm(row.appointment_time) } : null;
}

/** Whether the appointment has begun (Berlin wall clock), after which it cannot be cancelled online. */
export function hasBegun(date: string, time: string, now: Date): boolean {
  const start = berlinInstant(date, time);
  if (start) return start.getTime() <= now.getTime();
  const clock = berlinWallClock(now);
  return `${date} ${time}` <= `${clock.date} ${clock.time}`;
}

/** The appointment a cancellation link points to: 404 unknown or cancelled, 409 once begun. */
export async function bookingForCancellation(db: Database, token: string, now: Date = new Date()): Promise<BookingByToken> {
  const booking = await findByToken(db, token);
  if (!booking) throw new AppError('not-found', 'This cancellation link is unknown or was already used.');
  if (hasBegun(booking.appointment_date, booking.appointment_time, now)) {
    throw new AppError('too-late', 'This appointment has already begun and can no longer be cancelled online.');
  }
  return booking;
}

/** Cancels the appointment and frees its slot; a second use of the link finds nothing (404). */
export async function cancelBooking(db: Database, token: string, now: Date = new Date()): Promise<BookingByToken> {
  return db.transaction(async (tx) => {
    const booking = await findByToken(tx, token, true);
    if (!booking) throw new AppError('not-found', 'This cancellation link is unknown or was already used.');
    if (hasBegun(booking.appointment_date, booking.appointment_time, now)) {
      throw new AppError('too-late', 'This appointment has already begun and can no longer be cancelled online.');
    }
    await tx.delete(bookedSlots).where(eq(bookedSlots.id, booking.id));
    return booking;
  });
}

/**
 * The booking and availability code as it was before the seat constraint (docs/decisions/003), kept to be
 * measured beside today's (bench/booking-round-trips.ts) and to show that
 * the database's constraint alone holds (tests/integration/booking-concurrency.test.ts):
 * a transaction of about 8 round trips (BEGIN, advisory lock, type FOR
 * SHARE, windows, blocked dates, counts, insert, COMMIT) whose capacity
 * guarantee rested on every caller taking the right advisory lock.
 *
 * Only change: today's schema requires a seat, so the insert writes the
 * count it saw + 1. `advisoryLock: false` removes the lock.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import { appointmentTimeSlots, appointmentTypes, blockedDates, bookedSlots, type AppointmentTypeRow } from '../db/schema';
import {
  availabilityForRange,
  slotKey,
  timeRejection,
  type AvailabilityInput,
  type DayAvailability,
} from '../src/lib/availability';
import { AppError } from '../src/lib/errors';

const hhmm = (time: string) => time.slice(0, 5);

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** 256 random bits, URL-safe (at least 128 bits, only the hash is kept). */
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

export async function legacyGetAvailability(
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

export async function legacyCreateBooking(
  db: Database,
  slot: SlotRequest,
  options: {
    now?: Date;
    advisoryLock?: boolean;
    /** Awaited between counting and inserting: a test lines up transactions there to show the race deterministically. */
    beforeInsert?: () => Promise<void>;
  } = {},
): Promise<CreatedBooking> {
  const now = options.now ?? new Date();
  const date = slot.appointment_date;
  const time = slot.appointment_time;
  const token = newCancellationToken();
  return db.transaction(async (tx) => {
    // The lock key is the raw id string, as it was: 'ABC…' and 'abc…' take different locks.
    if (options.advisoryLock !== false) {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`${slot.appointment_type_id} ${date} ${time}`}, 727003))`,
      );
    }
    const [type] = await tx
      .select()
      .from(appointmentTypes)
      .where(eq(appointmentTypes.id, slot.appointment_type_id))
      .for('share');
    if (!type) throw new AppError('slot-unavailable', 'This consultation type is not offered (any more).');
    const input = await loadInput(tx, type, date, date, now, true);
    const rejection = timeRejection(date, time, input);
    if (rejection) throw new AppError('slot-unavailable', rejection);
    await options.beforeInsert?.();
    const [row] = await tx
      .insert(bookedSlots)
      .values({
        appointmentTypeId: type.id,
        appointmentDate: date,
        appointmentTime: time,
        // Today's schema needs a seat: the next one after the bookings this transaction counted.
        seat: (input.bookings.get(slotKey(date, time)) ?? 0) + 1,
        cancellationTokenHash: hashToken(token),
      })
      .returning();
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


/**
 * Finding a booking: by the patient's link (token) or by id (staff), with
 * what its emails need; and the tombstone a cancellation leaves (by the
 * practice or by the patient, docs/decisions/029), which the link answers
 * with 410 until the date has passed.
 */
import { and, eq, gte, sql } from 'drizzle-orm';
import { appointmentTypes, bookedSlots, cancelledBookings } from '../../../db/schema';
import { berlinWallClock } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import type { Executor } from '../../../db/client';
import { hashToken, hhmm, type BookingSource } from './shared.server';

export interface BookingView {
  id: string;
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  appointment_date: string;
  appointment_time: string;
  slot_duration_minutes: number;
  reference: string;
  price_cents: number | null;
  source: BookingSource;
  /** The calendar event's SEQUENCE (one more with every move). */
  sequence: number;
  cancellation_token_hash: string | null;
}

async function findBooking(db: Executor, where: ReturnType<typeof eq>, lock: boolean): Promise<BookingView | null> {
  const query = db
    .select({
      id: bookedSlots.id,
      appointment_type_id: bookedSlots.appointmentTypeId,
      type_name: appointmentTypes.name,
      type_name_en: appointmentTypes.nameEn,
      appointment_date: bookedSlots.appointmentDate,
      appointment_time: bookedSlots.appointmentTime,
      slot_duration_minutes: appointmentTypes.slotDurationMinutes,
      reference: bookedSlots.reference,
      price_cents: appointmentTypes.priceCents,
      source: bookedSlots.source,
      sequence: bookedSlots.sequence,
      cancellation_token_hash: bookedSlots.cancellationTokenHash,
    })
    .from(bookedSlots)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
    .where(where);
  const [row] = lock ? await query.for('update', { of: bookedSlots }) : await query;
  return row ? { ...row, source: row.source as BookingSource, appointment_time: hhmm(row.appointment_time) } : null;
}

/** The live booking of a cancellation link (locked when asked), or null. */
export function findByToken(db: Executor, token: string, lock = false): Promise<BookingView | null> {
  return findBooking(db, eq(bookedSlots.cancellationTokenHash, hashToken(token)), lock);
}

/** A live booking by id (locked when asked), or null. */
export function findById(db: Executor, id: string, lock = false): Promise<BookingView | null> {
  return findBooking(db, eq(bookedSlots.id, id), lock);
}

/** The body of 410 cancelled-by-practice and cancelled-by-patient. */
export interface PracticeCancellation {
  appointment_date: string;
  appointment_time: string;
  type_name: string;
  type_name_en: string | null;
  reference: string;
}

/**
 * Throws 410 cancelled-by-practice (or cancelled-by-patient) when the link's
 * booking was cancelled and its date has not passed; otherwise the link is
 * unknown (404). Only asked once no live booking was found.
 */
export async function throwUnknownLink(db: Executor, token: string, now: Date, detail: string): Promise<never> {
  const [tombstone] = await db
    .select({
      appointment_date: cancelledBookings.appointmentDate,
      appointment_time: cancelledBookings.appointmentTime,
      type_name: appointmentTypes.name,
      type_name_en: appointmentTypes.nameEn,
      reference: cancelledBookings.reference,
      cancelled_by: cancelledBookings.cancelledBy,
    })
    .from(cancelledBookings)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, cancelledBookings.appointmentTypeId))
    .where(
      and(
        eq(cancelledBookings.cancellationTokenHash, hashToken(token)),
        gte(cancelledBookings.appointmentDate, sql`${berlinWallClock(now).date}::date`),
      ),
    );
  if (tombstone) {
    const { cancelled_by, ...rest } = tombstone;
    const body: PracticeCancellation = { ...rest, appointment_time: hhmm(rest.appointment_time) };
    if (cancelled_by === 'patient') {
      throw new AppError('cancelled-by-patient', 'You have already cancelled this appointment.', undefined, { extra: { ...body } });
    }
    throw new AppError('cancelled-by-practice', 'The practice has cancelled this appointment.', undefined, { extra: { ...body } });
  }
  throw new AppError('not-found', detail);
}

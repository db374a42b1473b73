/**
 * Booked slots as the back office sees them (API.md Admin): type, date,
 * time, source, reference and whether the practice was notified. The
 * cancellation token hash never leaves the database. Staff bookings (phone)
 * go through the same insert as online ones (src/server/bookings.server.ts).
 */
import { asc, between, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTypes, bookedSlots } from '../../../db/schema';
import type { BookedSlotsQuery, StaffBookingInput } from '../../lib/admin-schemas';
import { createBooking, type BookingSource } from '../bookings.server';
import { hhmm, notFound } from './shared.server';

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
  created_at: string;
}

/** By date, then time; only `from` … `to` (inclusive) when a range is given (the week view, the day list). */
export async function listBookedSlots(db: Database, range: BookedSlotsQuery = {}): Promise<AdminBookedSlotDto[]> {
  const rows = await db
    .select({
      id: bookedSlots.id,
      appointment_type_id: bookedSlots.appointmentTypeId,
      type_name: appointmentTypes.name,
      appointment_date: bookedSlots.appointmentDate,
      appointment_time: bookedSlots.appointmentTime,
      source: bookedSlots.source,
      reference: bookedSlots.reference,
      practice_notified: bookedSlots.practiceNotified,
      created_at: bookedSlots.createdAt,
    })
    .from(bookedSlots)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
    .where(range.from && range.to ? between(bookedSlots.appointmentDate, range.from, range.to) : undefined)
    .orderBy(asc(bookedSlots.appointmentDate), asc(bookedSlots.appointmentTime), asc(appointmentTypes.name), asc(bookedSlots.createdAt));
  return rows.map((r) => ({
    ...r,
    source: r.source as BookingSource,
    appointment_time: hhmm(r.appointment_time),
    created_at: r.created_at.toISOString(),
  }));
}

/**
 * A seat taken by staff for a caller ("Termin eintragen", source phone):
 * the same rules and the same database guarantee as an online booking, no
 * limits, no token, no patient data. Runs inside the audit's transaction.
 */
export async function createStaffBooking(db: Database, input: StaffBookingInput, now: Date = new Date()): Promise<AdminBookedSlotDto> {
  const created = await createBooking(db, input, { source: 'phone', now });
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
    created_at: row!.createdAt.toISOString(),
  };
}

/** Releases the slot: the booking row goes, the time is bookable again at once. Returns what it released (for the audit label). */
export async function releaseBookedSlot(db: Database, id: string): Promise<{ reference: string; type_name: string; appointment_date: string; appointment_time: string }> {
  const [row] = await db
    .select({
      reference: bookedSlots.reference,
      type_name: appointmentTypes.name,
      appointment_date: bookedSlots.appointmentDate,
      appointment_time: bookedSlots.appointmentTime,
    })
    .from(bookedSlots)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
    .where(eq(bookedSlots.id, id));
  if (!row) throw notFound('booked slot');
  await db.delete(bookedSlots).where(eq(bookedSlots.id, id));
  return { ...row, appointment_time: hhmm(row.appointment_time) };
}

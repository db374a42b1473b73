/**
 * Booked slots as the back office sees them (API.md Admin): type, date and
 * time only. The cancellation token hash never leaves the database.
 */
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTypes, bookedSlots } from '../../../db/schema';
import { hhmm, notFound } from './shared.server';

export interface AdminBookedSlotDto {
  id: string;
  appointment_type_id: string;
  type_name: string;
  appointment_date: string;
  appointment_time: string;
  created_at: string;
}

/** By date, then time. */
export async function listBookedSlots(db: Database): Promise<AdminBookedSlotDto[]> {
  const rows = await db
    .select({
      id: bookedSlots.id,
      appointment_type_id: bookedSlots.appointmentTypeId,
      type_name: appointmentTypes.name,
      appointment_date: bookedSlots.appointmentDate,
      appointment_time: bookedSlots.appointmentTime,
      created_at: bookedSlots.createdAt,
    })
    .from(bookedSlots)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
    .orderBy(asc(bookedSlots.appointmentDate), asc(bookedSlots.appointmentTime), asc(appointmentTypes.name), asc(bookedSlots.createdAt));
  return rows.map((r) => ({ ...r, appointment_time: hhmm(r.appointment_time), created_at: r.created_at.toISOString() }));
}

/** Releases the slot: the booking row goes, the time is bookable again at once. */
export async function releaseBookedSlot(db: Database, id: string): Promise<void> {
  const rows = await db.delete(bookedSlots).where(eq(bookedSlots.id, id)).returning({ id: bookedSlots.id });
  if (rows.length === 0) throw notFound('booked slot');
}

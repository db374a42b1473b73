/**
 * Consultation types in the back office. Deleting a type
 * cascades to its windows and type-specific blocked dates (schema foreign
 * keys) and is refused while it has future bookings.
 */
import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTypes, bookedSlots, type AppointmentTypeRow } from '../../../db/schema';
import type { AppointmentTypeInput } from '../../lib/admin-schemas';
import { berlinWallClock } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import { toAppointmentTypeDto, type AppointmentTypeDto } from '../appointment-types.server';
import { notFound } from './shared.server';

export interface AdminAppointmentTypeDto extends AppointmentTypeDto {
  /** False: paused online, hidden from patients, still bookable by staff. */
  online_bookable: boolean;
  updated_at: string;
}

const toDto = (row: AppointmentTypeRow): AdminAppointmentTypeDto => ({
  ...toAppointmentTypeDto(row),
  online_bookable: row.onlineBookable,
  updated_at: row.updatedAt.toISOString(),
});

const columns = (input: AppointmentTypeInput) => ({
  name: input.name,
  nameEn: input.name_en,
  description: input.description,
  descriptionEn: input.description_en,
  maxAdvanceDays: input.max_advance_days,
  slotDurationMinutes: input.slot_duration_minutes,
  maxSlotsPerTime: input.max_slots_per_time,
  priceCents: input.price_cents,
  onlineBookable: input.online_bookable,
});

export async function listAdminAppointmentTypes(db: Database): Promise<AdminAppointmentTypeDto[]> {
  const rows = await db.select().from(appointmentTypes).orderBy(asc(appointmentTypes.name), asc(appointmentTypes.id));
  return rows.map(toDto);
}

export async function createAppointmentType(db: Database, input: AppointmentTypeInput): Promise<AdminAppointmentTypeDto> {
  const [row] = await db.insert(appointmentTypes).values(columns(input)).returning();
  return toDto(row!);
}

export async function updateAppointmentType(db: Database, id: string, input: AppointmentTypeInput): Promise<AdminAppointmentTypeDto> {
  const [row] = await db
    .update(appointmentTypes)
    .set({ ...columns(input), updatedAt: sql`now()` })
    .where(eq(appointmentTypes.id, id))
    .returning();
  if (!row) throw notFound('consultation type');
  return toDto(row);
}

/**
 * Deletes the type unless an appointment of it is still ahead (Berlin wall
 * clock). The type row is locked FOR UPDATE before counting: a booking holds
 * it FOR SHARE while it inserts, so either the booking commits first and is
 * counted here, or it waits and then finds the type gone.
 */
export async function deleteAppointmentType(db: Database, id: string, now: Date = new Date()): Promise<{ id: string; name: string }> {
  const clock = berlinWallClock(now);
  return db.transaction(async (tx) => {
    const [type] = await tx
      .select({ id: appointmentTypes.id, name: appointmentTypes.name })
      .from(appointmentTypes)
      .where(eq(appointmentTypes.id, id))
      .for('update');
    if (!type) throw notFound('consultation type');
    const [future] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(bookedSlots)
      .where(
        and(
          eq(bookedSlots.appointmentTypeId, id),
          or(
            gt(bookedSlots.appointmentDate, clock.date),
            and(eq(bookedSlots.appointmentDate, clock.date), gt(bookedSlots.appointmentTime, clock.time)),
          ),
        ),
      );
    const n = Number(future?.n ?? 0);
    if (n > 0) {
      throw new AppError(
        'type-has-future-bookings',
        n === 1
          ? 'Diese Terminart hat noch einen zukünftigen gebuchten Termin und kann nicht gelöscht werden. Geben Sie ihn zuerst frei.'
          : `Diese Terminart hat noch ${n} zukünftige gebuchte Termine und kann nicht gelöscht werden. Geben Sie diese zuerst frei.`,
      );
    }
    await tx.delete(appointmentTypes).where(eq(appointmentTypes.id, id));
    return type;
  });
}

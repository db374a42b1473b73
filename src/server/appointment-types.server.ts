/** Consultation types as the public API shows them. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { appointmentTimeSlots, appointmentTypes, type AppointmentTypeRow } from '../../db/schema';

export interface AppointmentTypeDto {
  id: string;
  name: string;
  name_en: string | null;
  description: string;
  description_en: string | null;
  max_advance_days: number;
  slot_duration_minutes: number;
  max_slots_per_time: number;
  price_cents: number | null;
}

export function toAppointmentTypeDto(row: AppointmentTypeRow): AppointmentTypeDto {
  return {
    id: row.id,
    name: row.name,
    name_en: row.nameEn,
    description: row.description,
    description_en: row.descriptionEn,
    max_advance_days: row.maxAdvanceDays,
    slot_duration_minutes: row.slotDurationMinutes,
    max_slots_per_time: row.maxSlotsPerTime,
    price_cents: row.priceCents,
  };
}

/**
 * The types patients can book (GET /api/appointment-types): online-bookable
 * ones with at least one weekly window. A type paused online or without any
 * window is not offered at all, rather than offered with no free time.
 */
export async function listAppointmentTypes(db: Database): Promise<AppointmentTypeDto[]> {
  const rows = await db
    .select()
    .from(appointmentTypes)
    .where(
      and(
        eq(appointmentTypes.onlineBookable, true),
        // Spelled out: drizzle writes a bare "id" inside a subquery, which would name the window's own id.
        sql`exists (select 1 from ${appointmentTimeSlots} w where w.appointment_type_id = "appointment_types"."id")`,
      ),
    )
    .orderBy(asc(appointmentTypes.name), asc(appointmentTypes.id));
  return rows.map(toAppointmentTypeDto);
}

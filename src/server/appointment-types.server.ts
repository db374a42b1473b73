/** Consultation types as the public API shows them (API.md, SPEC.md §3). */
import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { appointmentTypes, type AppointmentTypeRow } from '../../db/schema';

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

export async function listAppointmentTypes(db: Database): Promise<AppointmentTypeDto[]> {
  const rows = await db.select().from(appointmentTypes).orderBy(asc(appointmentTypes.name), asc(appointmentTypes.id));
  return rows.map(toAppointmentTypeDto);
}

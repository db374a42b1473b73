/**
 * Rows the integration tests set up directly in the database.
 */
import type { Database } from '../../db/client';
import { appointmentTimeSlots, appointmentTypes } from '../../db/schema';

export interface WeeklyWindow {
  /** Weekdays, 0 = Sunday .. 6 = Saturday; Monday to Friday unless given. */
  days?: number[];
  /** 'HH:MM'; 08:20 unless given. */
  start?: string;
  /** 'HH:MM'; 13:40 unless given. */
  end?: string;
}

/**
 * Inserts a consultation type and one time window on each of the given
 * weekdays (by default Monday to Friday, 08:20–13:40); answers the type's row.
 */
export async function addBookableType(
  db: Database,
  values: typeof appointmentTypes.$inferInsert,
  { days = [1, 2, 3, 4, 5], start = '08:20', end = '13:40' }: WeeklyWindow = {},
): Promise<typeof appointmentTypes.$inferSelect> {
  const [type] = await db.insert(appointmentTypes).values(values).returning();
  await db
    .insert(appointmentTimeSlots)
    .values(days.map((dayOfWeek) => ({ appointmentTypeId: type!.id, dayOfWeek, startTime: start, endTime: end })));
  return type!;
}

/** Weekly time windows (appointment_time_slots) in the back office (API.md Admin). */
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTimeSlots, appointmentTypes } from '../../../db/schema';
import type { NewTimeWindowsInput, TimeWindowInput } from '../../lib/admin-schemas';
import { hhmm, notFound, withTypeReference } from './shared.server';

export interface TimeWindowDto {
  id: string;
  appointment_type_id: string;
  type_name: string;
  day_of_week: number;
  start_time: string;
  end_time: string;
}

const selection = {
  id: appointmentTimeSlots.id,
  appointment_type_id: appointmentTimeSlots.appointmentTypeId,
  type_name: appointmentTypes.name,
  day_of_week: appointmentTimeSlots.dayOfWeek,
  start_time: appointmentTimeSlots.startTime,
  end_time: appointmentTimeSlots.endTime,
};

const toDto = (row: TimeWindowDto): TimeWindowDto => ({ ...row, start_time: hhmm(row.start_time), end_time: hhmm(row.end_time) });

function query(db: Database) {
  return db.select(selection).from(appointmentTimeSlots).innerJoin(appointmentTypes, eq(appointmentTypes.id, appointmentTimeSlots.appointmentTypeId));
}

/** Every window with its type's name, by weekday (0 = Sunday) and start time. */
export async function listTimeWindows(db: Database): Promise<TimeWindowDto[]> {
  const rows = await query(db).orderBy(
    asc(appointmentTimeSlots.dayOfWeek),
    asc(appointmentTimeSlots.startTime),
    asc(appointmentTypes.name),
    asc(appointmentTimeSlots.id),
  );
  return rows.map(toDto);
}

async function byId(db: Database, id: string): Promise<TimeWindowDto> {
  const [row] = await query(db).where(eq(appointmentTimeSlots.id, id));
  if (!row) throw notFound('time window');
  return toDto(row);
}

const columns = (input: TimeWindowInput) => ({
  appointmentTypeId: input.appointment_type_id,
  dayOfWeek: input.day_of_week,
  startTime: input.start_time,
  endTime: input.end_time,
});

/** One window per weekday of `input.days` (several weekdays in one step), in that order. */
export async function createTimeWindows(db: Database, input: NewTimeWindowsInput): Promise<TimeWindowDto[]> {
  const { days, several: _, ...window } = input;
  const rows = await withTypeReference(() =>
    db
      .insert(appointmentTimeSlots)
      .values(days.map((day_of_week) => columns({ ...window, day_of_week })))
      .returning({ id: appointmentTimeSlots.id }),
  );
  const created = await Promise.all(rows.map((row) => byId(db, row.id)));
  return created.sort((a, b) => days.indexOf(a.day_of_week) - days.indexOf(b.day_of_week));
}

export async function updateTimeWindow(db: Database, id: string, input: TimeWindowInput): Promise<TimeWindowDto> {
  const [row] = await withTypeReference(() =>
    db.update(appointmentTimeSlots).set(columns(input)).where(eq(appointmentTimeSlots.id, id)).returning({ id: appointmentTimeSlots.id }),
  );
  if (!row) throw notFound('time window');
  return byId(db, row.id);
}

/** Deletes the window and returns it as it was (for the audit label). */
export async function deleteTimeWindow(db: Database, id: string): Promise<TimeWindowDto> {
  const window = await byId(db, id);
  await db.delete(appointmentTimeSlots).where(eq(appointmentTimeSlots.id, id));
  return window;
}

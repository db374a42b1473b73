/**
 * Weekly time windows (appointment_time_slots) in the back office. Two windows of one type never overlap on a weekday: a new or
 * edited window that would is refused with 409 `window-overlap` naming the
 * window it meets (docs/decisions/030). The check holds the type's row, so
 * two saves of one type at once queue and the second sees the first.
 */
import { and, asc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import { AppError } from '../../lib/errors';
import type { Database } from '../../../db/client';
import { appointmentTimeSlots, appointmentTypes } from '../../../db/schema';
import type { NewTimeWindowsInput, TimeWindowInput } from '../../lib/admin-schemas';
import { hhmm } from '../bookings/shared.server';
import { notFound, withTypeReference } from './shared.server';

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

/**
 * 409 `window-overlap` when [start, end) of the type on one of `days` meets
 * another of its windows (`except`: the one being edited). Windows that only
 * touch (09:00–12:00 and 12:00–15:00) do not overlap.
 */
async function refuseOverlap(db: Database, input: { appointment_type_id: string; start_time: string; end_time: string }, days: number[], except?: string) {
  // Serialises saves of one type (a missing type is left to the insert's foreign key: 400 typeUnknown).
  await db.execute(sql`select 1 from appointment_types where id = ${input.appointment_type_id}::uuid for update`);
  for (const day of days) {
    const [other] = await query(db)
      .where(
        and(
          eq(appointmentTimeSlots.appointmentTypeId, input.appointment_type_id),
          eq(appointmentTimeSlots.dayOfWeek, day),
          lt(appointmentTimeSlots.startTime, input.end_time),
          gt(appointmentTimeSlots.endTime, input.start_time),
          except ? ne(appointmentTimeSlots.id, except) : undefined,
        ),
      )
      .orderBy(asc(appointmentTimeSlots.startTime))
      .limit(1);
    if (other) {
      const overlap = toDto(other);
      throw new AppError('window-overlap', `The window overlaps ${overlap.type_name}'s window ${overlap.start_time}–${overlap.end_time} on day ${overlap.day_of_week}.`, undefined, {
        extra: { overlap },
      });
    }
  }
}

/** One window per weekday of `input.days` (several weekdays in one step), in that order. */
export async function createTimeWindows(db: Database, input: NewTimeWindowsInput): Promise<TimeWindowDto[]> {
  const { days, several: _, ...window } = input;
  await refuseOverlap(db, window, days);
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
  await refuseOverlap(db, input, [input.day_of_week], id);
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

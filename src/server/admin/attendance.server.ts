/**
 * Arrival (docs/decisions/026-arrival-practice-notice-retention.md):
 * reception marks a booking "erschienen" (`arrived`) or "nicht erschienen"
 * (`no_show`) on the appointment's day, one tap, and may undo it (null) the
 * same day. It is a status of the booking, not patient data: it stays when
 * the appointment contact is deleted at the day's end and feeds the
 * dashboard's no-show figures.
 *
 * Only the appointment's own Berlin day is open: a later day is 409
 * `future`, an earlier one 409 `day-ended`; "nicht erschienen" before the
 * appointment's start is 409 `not-begun` (nobody can have missed it yet),
 * while "erschienen" may come early, as patients do. The row is locked
 * while it is checked and written, so a concurrent move or cancellation
 * either happens first (then the mark sees the new day, or 404) or waits.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTypes, bookedSlots } from '../../../db/schema';
import type { Attendance } from '../../lib/admin-schemas';
import { berlinToday } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import { hasBegun } from '../bookings/shared.server';
import { hhmm } from '../bookings/shared.server';
import { notFound } from './shared.server';

export interface AttendanceDto {
  id: string;
  appointment_type_id: string;
  type_name: string;
  appointment_date: string;
  appointment_time: string;
  reference: string;
  attendance: Attendance;
}

export type AttendanceRefusal = 'future' | 'day-ended' | 'not-begun';

function refused(reason: AttendanceRefusal): AppError {
  const detail = {
    future: 'Der Termin liegt an einem späteren Tag: Ankunft erst an seinem Tag eintragen.',
    'day-ended': 'Der Tag dieses Termins ist vorbei: die Ankunft kann nicht mehr geändert werden.',
    'not-begun': 'Der Termin hat noch nicht begonnen: „nicht erschienen“ erst ab seiner Uhrzeit.',
  }[reason];
  return new AppError('conflict', detail, undefined, { extra: { reason } });
}

/** Marks (or, with null, unmarks) a booking's arrival; runs inside the audit's transaction. */
export async function setAttendance(db: Database, id: string, attendance: Attendance, now: Date = new Date()): Promise<AttendanceDto> {
  const [row] = await db
    .select({
      id: bookedSlots.id,
      appointment_type_id: bookedSlots.appointmentTypeId,
      type_name: appointmentTypes.name,
      appointment_date: bookedSlots.appointmentDate,
      appointment_time: bookedSlots.appointmentTime,
      reference: bookedSlots.reference,
    })
    .from(bookedSlots)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
    .where(eq(bookedSlots.id, id))
    .for('update', { of: bookedSlots });
  if (!row) throw notFound('booked slot');
  const today = berlinToday(now);
  const time = hhmm(row.appointment_time);
  if (row.appointment_date > today) throw refused('future');
  if (row.appointment_date < today) throw refused('day-ended');
  if (attendance === 'no_show' && !hasBegun(row.appointment_date, time, now)) throw refused('not-begun');
  await db.update(bookedSlots).set({ attendance }).where(eq(bookedSlots.id, id));
  return { ...row, appointment_time: time, attendance };
}

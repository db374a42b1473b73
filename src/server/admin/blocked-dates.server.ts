/**
 * Blocked dates in the back office; a null type blocks every
 * type. Saving one (it may cover bookings) is block-bookings.server.ts.
 */
import { asc, desc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTypes, blockedDates } from '../../../db/schema';
import { notFound } from './shared.server';

export interface BlockedDateDto {
  id: string;
  date: string;
  reason: string | null;
  appointment_type_id: string | null;
  /** null when the date is blocked for every type. */
  type_name: string | null;
  /** HH:mm, both null for the whole day. */
  start_time: string | null;
  end_time: string | null;
  /** Shared by the days of a range saved in one step; null for a single day. */
  range_id: string | null;
}

const selection = {
  id: blockedDates.id,
  date: blockedDates.date,
  reason: blockedDates.reason,
  appointment_type_id: blockedDates.appointmentTypeId,
  type_name: appointmentTypes.name,
  start_time: blockedDates.startTime,
  end_time: blockedDates.endTime,
  range_id: blockedDates.rangeId,
};

const toDto = (row: Omit<BlockedDateDto, never>): BlockedDateDto => ({
  ...row,
  start_time: row.start_time === null ? null : row.start_time.slice(0, 5),
  end_time: row.end_time === null ? null : row.end_time.slice(0, 5),
});

function query(db: Database) {
  return db.select(selection).from(blockedDates).leftJoin(appointmentTypes, eq(appointmentTypes.id, blockedDates.appointmentTypeId));
}

/** Newest date first. */
export async function listBlockedDates(db: Database): Promise<BlockedDateDto[]> {
  const rows = await query(db).orderBy(desc(blockedDates.date), asc(blockedDates.startTime), asc(appointmentTypes.name), asc(blockedDates.id));
  return rows.map(toDto);
}

export async function blockedDateById(db: Database, id: string): Promise<BlockedDateDto> {
  const [row] = await query(db).where(eq(blockedDates.id, id));
  if (!row) throw notFound('blocked date');
  return toDto(row);
}

export async function deleteBlockedDate(db: Database, id: string, scope: 'one' | 'range' = 'one'): Promise<BlockedDateDto> {
  const block = await blockedDateById(db, id);
  // `range`: every day of the range it belongs to (docs/decisions/021).
  const where = scope === 'range' && block.range_id ? eq(blockedDates.rangeId, block.range_id) : eq(blockedDates.id, id);
  await db.delete(blockedDates).where(where);
  return block;
}

/** Blocked dates in the back office (API.md Admin); a null type blocks every type. */
import { asc, desc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTypes, blockedDates } from '../../../db/schema';
import type { BlockedDateInput } from '../../lib/admin-schemas';
import { notFound, withTypeReference } from './shared.server';

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
}

const selection = {
  id: blockedDates.id,
  date: blockedDates.date,
  reason: blockedDates.reason,
  appointment_type_id: blockedDates.appointmentTypeId,
  type_name: appointmentTypes.name,
  start_time: blockedDates.startTime,
  end_time: blockedDates.endTime,
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

async function byId(db: Database, id: string): Promise<BlockedDateDto> {
  const [row] = await query(db).where(eq(blockedDates.id, id));
  if (!row) throw notFound('blocked date');
  return toDto(row);
}

const columns = (input: BlockedDateInput) => ({
  date: input.date,
  reason: input.reason,
  appointmentTypeId: input.appointment_type_id,
  startTime: input.start_time,
  endTime: input.end_time,
});

export async function createBlockedDate(db: Database, input: BlockedDateInput): Promise<BlockedDateDto> {
  const [row] = await withTypeReference(() => db.insert(blockedDates).values(columns(input)).returning({ id: blockedDates.id }));
  return byId(db, row!.id);
}

export async function updateBlockedDate(db: Database, id: string, input: BlockedDateInput): Promise<BlockedDateDto> {
  const [row] = await withTypeReference(() =>
    db.update(blockedDates).set(columns(input)).where(eq(blockedDates.id, id)).returning({ id: blockedDates.id }),
  );
  if (!row) throw notFound('blocked date');
  return byId(db, row.id);
}

/** Deletes the block and returns it as it was (for the audit label). */
export async function deleteBlockedDate(db: Database, id: string): Promise<BlockedDateDto> {
  const block = await byId(db, id);
  await db.delete(blockedDates).where(eq(blockedDates.id, id));
  return block;
}

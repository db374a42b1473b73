/**
 * The SQL every booking action shares (docs/decisions/003): loading a
 * type's rules in one query, and the guard that takes a seat, used by a new
 * booking (online or staff: insertBooking) and by every move (patient or
 * staff: moveSeat), the two statements side by side.
 *
 * Capacity guarantee: the database's, not this module's. Every booking holds
 * a seat 1..max_slots_per_time, unique per (type, date, time), and a trigger
 * refuses a seat beyond the type's capacity. A statement picks the lowest
 * free seat; when a parallel booking took it first the unique index refuses
 * the row and the statement is retried (a bounded number of times: every
 * lost race means one more seat is gone).
 */
import { randomUUID } from 'node:crypto';
import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { isCheckViolation, isForeignKeyViolation, isUniqueViolation } from '../../../db/errors';
import { appointmentTypes, type AppointmentTypeRow } from '../../../db/schema';
import { timeRejection, type BlockedRange, type TimeRejection, type WeeklyWindow } from '../../lib/availability';
import { weekdayOf } from '../../lib/berlin-time';
import { closedDaysBetween, closingRuleOf, type ClosedDay, type HolidaySettings } from '../../lib/holidays';
import { drawReference } from '../../../db/booking-reference';
import { contactCte, type NewContact } from '../appointment-contact/store.server';
import { queuedEmailsCte, type PreparedEmail } from '../email/queue.server';
import { asRateLimited, hitCte, purgeCte, withinLimitCheck, type RateLimitHit } from '../rate-limit.server';
import { holidaySettingsOf, holidaySettingsSql } from '../holiday-settings.server';
import { fromJson, rowsOf, rulesOf, slotUnavailable, type BookingRules, type BookingSource } from './shared.server';

export interface TypeWithRules {
  type: AppointmentTypeRow;
  windows: WeeklyWindow[];
  blockedDates: string[];
  blockedRanges: BlockedRange[];
  /** What the practice decided about holidays (read by the same query). */
  holidaySettings: HolidaySettings;
  /** The days in [from, to] closed by those settings: public holidays not opened, 24/31 December when closed. */
  closedDays: ClosedDay[];
  counts: Array<[string, string, number]>;
}

/**
 * The type with everything its availability depends on, in ONE query: its
 * weekly windows, the blocked dates in [from, to] (its own and those of
 * every type), the practice's holiday settings (the closed days follow
 * from them, src/lib/holidays.ts) and, when asked, its booking counts per
 * date and time. Null when there is no such type.
 */
export async function loadRules(db: Executor, typeId: string, from: string, to: string, withCounts: boolean): Promise<TypeWithRules | null> {
  const t = appointmentTypes;
  // Spelled out: drizzle would write a bare "id", which the subqueries would take for their own id.
  const typeRef = sql.raw('"appointment_types"."id"');
  const counts = withCounts
    ? sql`coalesce((
        select json_agg(json_build_array(c.appointment_date, c.appointment_time, c.n))
        from (
          select appointment_date, appointment_time, count(*)::int as n from booked_slots
          where appointment_type_id = ${typeRef} and appointment_date between ${from}::date and ${to}::date
          group by appointment_date, appointment_time
        ) c), '[]'::json)`
    : sql`'[]'::json`;
  const [row] = await db
    .select({
      ...getTableColumns(t),
      windows: sql<unknown>`coalesce((
        select json_agg(json_build_object('dayOfWeek', w.day_of_week, 'startTime', w.start_time, 'endTime', w.end_time)
          order by w.day_of_week, w.start_time)
        from appointment_time_slots w where w.appointment_type_id = ${typeRef}), '[]'::json)`,
      blocked: sql<unknown>`coalesce((
        select json_agg(json_build_array(b.date, b.start_time, b.end_time)) from blocked_dates b
        where b.date between ${from}::date and ${to}::date
          and (b.appointment_type_id is null or b.appointment_type_id = ${typeRef})), '[]'::json)`,
      counts: sql<unknown>`${counts}`,
      holidays: sql<unknown>`${holidaySettingsSql()}`,
    })
    .from(t)
    .where(eq(t.id, typeId));
  if (!row) return null;
  const { windows, blocked, counts: countRows, holidays, ...type } = row;
  const blocks = fromJson<Array<[string, string | null, string | null]>>(blocked);
  const holidaySettings = holidaySettingsOf(holidays);
  return {
    type,
    windows: fromJson<WeeklyWindow[]>(windows),
    // Whole days (no times) and partial-day ranges (docs/decisions/020-reception.md).
    blockedDates: blocks.filter(([, start]) => start === null).map(([date]) => date),
    blockedRanges: blocks
      .filter(([, start, end]) => start !== null && end !== null)
      .map(([date, startTime, endTime]) => ({ date, startTime: startTime!, endTime: endTime! })),
    holidaySettings,
    closedDays: closedDaysBetween(from, to, holidaySettings),
    counts: fromJson<Array<[string, string, number]>>(countRows),
  };
}

/**
 * The type's rules for one date, checked for one time by the pure module
 * (windows, past, advance limit, blocks, closed days; capacity is the
 * statement's): 409 slot-unavailable with the reason when the time breaks
 * one. A closed day binds unless staff confirmed it (`confirmHoliday`,
 * docs/decisions/039-public-holidays.md); its 409 names the day.
 */
export async function checkedRules(
  db: Executor,
  typeId: string,
  date: string,
  time: string,
  now: Date,
  rules: BookingRules,
  options: { confirmHoliday?: boolean } = {},
): Promise<TypeWithRules> {
  const loaded = await loadRules(db, typeId, date, date, false);
  if (!loaded) throw slotUnavailable('unknown-type');
  const rejection = timeRejection(date, time, {
    type: rulesOf(loaded.type, rules),
    windows: loaded.windows,
    blockedDates: loaded.blockedDates,
    blockedRanges: loaded.blockedRanges,
    closedDates: options.confirmHoliday ? [] : loaded.closedDays.map((d) => d.date),
    bookings: new Map(),
    now,
  });
  if (rejection) throw slotUnavailable(rejection, { date, rules });
  return loaded;
}

/**
 * Whether (date, time) of the type is blocked: a whole-day block, or a range
 * that the appointment [time, time + duration) overlaps (minutes, so nothing
 * wraps at midnight). For the type or for all.
 */
export function blockedCheck(typeId: string, date: string, time: string): SQL {
  return sql`exists (
      select 1 from blocked_dates b, appointment_types bt
      where bt.id = ${typeId}::uuid and b.date = ${date}::date
        and (b.appointment_type_id is null or b.appointment_type_id = bt.id)
        and (b.start_time is null or (
          extract(epoch from b.start_time) / 60 < extract(epoch from ${time}::time) / 60 + bt.slot_duration_minutes
          and extract(epoch from ${time}::time) < extract(epoch from b.end_time))))`;
}

/**
 * Whether `date` is closed by the practice's holiday settings as they are
 * now (the statement re-checks what the read before it saw): a public
 * holiday the practice has not opened, or 24/31 December with its switch
 * on. `false` for any other day, and when staff confirmed the day
 * (docs/decisions/039-public-holidays.md).
 */
export function closedDayCheck(date: string, confirmHoliday = false): SQL {
  const rule = confirmHoliday ? null : closingRuleOf(date);
  const settings = (column: SQL) => sql`(select ${column} from practice_settings s where s.id)`;
  switch (rule) {
    case 'public-holiday':
      return sql`not coalesce(${settings(sql`${date}::date = any(s.holidays_opened)`)}, false)`;
    case 'closeDec24':
      return sql`coalesce(${settings(sql`s.close_dec_24`)}, false)`;
    case 'closeDec31':
      return sql`coalesce(${settings(sql`s.close_dec_31`)}, false)`;
    default:
      return sql`false`;
  }
}

/**
 * The CTEs `valid` (the type, when the time is not blocked, not on a closed
 * day unless confirmed, and is a start time of one of the weekday's
 * windows) and `seat` (the lowest free seat of the time): shared by a new
 * booking and a move.
 */
export function slotCtes(typeId: string, date: string, time: string, confirmHoliday = false): SQL {
  const weekday = weekdayOf(date);
  return sql`valid as (
      select t.id, t.max_slots_per_time as capacity
      from appointment_types t
      where t.id = ${typeId}::uuid
        and not ${blockedCheck(typeId, date, time)}
        and not ${closedDayCheck(date, confirmHoliday)}
        and exists (
          select 1 from appointment_time_slots w
          where w.appointment_type_id = t.id
            and w.day_of_week = ${weekday}
            and w.start_time <= ${time}::time
            and extract(epoch from ${time}::time) / 60 + t.slot_duration_minutes <= extract(epoch from w.end_time) / 60
            and (extract(epoch from ${time}::time - w.start_time) / 60)::int % t.slot_duration_minutes = 0)
    ),
    seat as (
      select s.n::smallint as seat
      from valid v, generate_series(1, v.capacity) as s(n)
      where not exists (
        select 1 from booked_slots b
        where b.appointment_type_id = v.id and b.appointment_date = ${date}::date
          and b.appointment_time = ${time}::time and b.seat = s.n)
      order by s.n
      limit 1
    )`;
}

/** The columns a booking or move statement RETURNS from its `booked` CTE. */
export const bookedReturning = sql`returning id, appointment_type_id, appointment_date::text, appointment_time::text, seat, source, reference, sequence`;

/**
 * The row a booking or move statement answers with: the written row (null
 * when none) and why not, read by `seatOutcome`.
 */
export function outcomeColumns(typeId: string, date: string, time: string, confirmHoliday = false): SQL {
  return sql`(select row_to_json(booked) from booked) as booked,
      exists (select 1 from valid) as valid,
      exists (select 1 from appointment_types where id = ${typeId}::uuid) as type_exists,
      ${blockedCheck(typeId, date, time)} as blocked,
      ${closedDayCheck(date, confirmHoliday)} as holiday`;
}

export interface BookedRow {
  id: string;
  appointmentTypeId: string;
  appointmentDate: string;
  appointmentTime: string;
  seat: number;
  source: BookingSource;
  reference: string;
  sequence: number;
}

export type SeatResult =
  | { booked: BookedRow }
  | { rejected: Extract<TimeRejection, 'full' | 'blocked' | 'holiday' | 'not-a-slot'> | 'unknown-type' };

export type SeatStatementRow = { booked: unknown; valid: boolean; type_exists: boolean; blocked: boolean; holiday: boolean };

export function seatOutcome(row: SeatStatementRow | undefined): SeatResult {
  if (!row) throw new Error('booking statement returned no row');
  if (row.booked) {
    const b = fromJson<{
      id: string;
      appointment_type_id: string;
      appointment_date: string;
      appointment_time: string;
      seat: number;
      source: BookingSource;
      reference: string;
      sequence: number;
    }>(row.booked);
    return {
      booked: {
        id: b.id,
        appointmentTypeId: b.appointment_type_id,
        appointmentDate: b.appointment_date,
        appointmentTime: b.appointment_time,
        seat: b.seat,
        source: b.source,
        reference: b.reference,
        sequence: b.sequence,
      },
    };
  }
  if (!row.type_exists) return { rejected: 'unknown-type' };
  if (row.blocked) return { rejected: 'blocked' };
  if (row.holiday) return { rejected: 'holiday' };
  if (!row.valid) return { rejected: 'not-a-slot' };
  return { rejected: 'full' };
}

/** Every lost race means another seat is taken, so capacity (at most 10) + 1 attempts always end. */
export const MAX_SEAT_ATTEMPTS = 11;

/** A parallel booking took the seat first (unique index) or the capacity dropped meanwhile (trigger). */
export function lostSeat(error: unknown): boolean {
  return isUniqueViolation(error, 'booked_slots_type_date_time_seat_idx') || isCheckViolation(error, 'booked_slots_seat_within_capacity');
}

/**
 * Moves a booking row (locked by the caller's transaction) to the new date,
 * time and the lowest free seat there, guarded exactly like a new booking
 * (same `valid` and `seat` CTEs, same unique index and capacity trigger),
 * one more SEQUENCE for its calendar event, and no arrival mark (one made
 * for the old time says nothing about the new). The row keeps its id, token
 * hash, reference and source, so the emailed link, the calendar UID and the
 * reference stay. Each attempt runs under a savepoint, so a lost race
 * aborts only the attempt.
 */
export async function moveSeat(tx: Executor, bookingId: string, typeId: string, date: string, time: string, confirmHoliday = false): Promise<SeatResult> {
  const statement = sql`
    with ${slotCtes(typeId, date, time, confirmHoliday)},
    booked as (
      update booked_slots set appointment_date = ${date}::date, appointment_time = ${time}::time,
        seat = (select seat from seat), sequence = sequence + 1, attendance = null
      where id = ${bookingId}::uuid and exists (select 1 from seat)
      ${bookedReturning}
    )
    select
      ${outcomeColumns(typeId, date, time, confirmHoliday)}`;
  for (let attempt = 1; ; attempt++) {
    try {
      const [row] = await tx.transaction(async (sp) => rowsOf<SeatStatementRow>(await sp.execute(statement)));
      return seatOutcome(row);
    } catch (error) {
      if (!lostSeat(error)) throw error;
      if (attempt >= MAX_SEAT_ATTEMPTS) return { rejected: 'full' };
    }
  }
}

export interface InsertBookingInput {
  /** The new row's id; drawn here when absent. A contact is sealed for it beforehand. */
  id?: string;
  typeId: string;
  date: string;
  /** HH:mm */
  time: string;
  /** SHA-256 of the cancellation token; null for a phone booking without email, which has no link. */
  tokenHash: string | null;
  /** `online` (default) or `phone` (a staff booking). */
  source?: BookingSource;
  /** Staff confirmed booking on a closed day (docs/decisions/039-public-holidays.md). */
  confirmHoliday?: boolean;
  /** The booking's sealed contact, written by the same statement. */
  contact?: NewContact;
  /** Abuse limits counted in the same statement (online bookings); none for staff. */
  limits?: RateLimitHit[];
  /**
   * The emails the booking promises, sealed for the outbox and written by the
   * same statement (docs/decisions/035), built for the reference drawn for
   * this attempt.
   */
  emails?: (reference: string) => PreparedEmail[];
  /**
   * Set when `db` is a transaction (a staff booking with its audit entry):
   * every attempt runs under a savepoint, so a lost race does not abort the
   * surrounding transaction.
   */
  inTransaction?: boolean;
  now?: Date;
}

/** A drawn reference that is taken (1 in ~887 million per stored booking) draws again. */
const MAX_REFERENCE_ATTEMPTS = 5;

/**
 * The one statement that books a seat: it inserts only if the type exists,
 * the time is not blocked (for the type or for all), the time is a start
 * time of one of the weekday's windows and a seat is free, taking the lowest
 * free seat; it writes the contact of the row it inserted; the abuse limits
 * are counted in the same statement and abort it when exceeded.
 */
function insertStatement(id: string, reference: string, input: InsertBookingInput, now: Date): SQL {
  const { typeId, date, time, tokenHash } = input;
  const source = input.source ?? 'online';
  const limits = input.limits ?? [];
  const hitCtes = limits.map((hit, i) => sql`, ${sql.raw(`hit${i}`)} as (${hitCte(hit, now, sql`seat`)})`);
  const checks = limits.map((hit, i) => sql`${withinLimitCheck(hit, sql.raw(`hit${i}`))} as ${sql.raw(`within${i}`)}, `);
  const contact = input.contact ? sql`, contact as (${contactCte(input.contact)})` : sql``;
  const emails = input.emails?.(reference) ?? [];
  const queued = emails.length ? sql`, queued as (${queuedEmailsCte(emails, sql`booked`, now)})` : sql``;
  return sql`
    with ${slotCtes(typeId, date, time, input.confirmHoliday)}${sql.join(hitCtes, sql``)},
    booked as (
      insert into booked_slots (id, appointment_type_id, appointment_date, appointment_time, seat, cancellation_token_hash, source, reference)
      select ${id}::uuid, ${typeId}::uuid, ${date}::date, ${time}::time, seat.seat, ${tokenHash}, ${source}, ${reference} from seat
      ${bookedReturning}
    )${contact}${queued},
    purge as (${purgeCte(now, limits)})
    select
      ${sql.join(checks, sql``)}
      ${outcomeColumns(typeId, date, time, input.confirmHoliday)}`;
}

/**
 * Books the lowest free seat of (type, date, time) in one statement (one
 * round trip when uncontended), or says why not. Throws 429 when a limit
 * in `limits` is exceeded; then nothing was written.
 */
export async function insertBooking(db: Executor, input: InsertBookingInput): Promise<SeatResult> {
  const now = input.now ?? new Date();
  const id = input.id ?? randomUUID();
  let statement = insertStatement(id, drawReference(), input, now);
  const run = async (): Promise<SeatStatementRow[]> =>
    input.inTransaction
      ? db.transaction(async (savepoint) => rowsOf<SeatStatementRow>(await savepoint.execute(statement)))
      : rowsOf<SeatStatementRow>(await db.execute(statement));
  let referenceAttempts = 0;
  for (let attempt = 1; ; attempt++) {
    let row: SeatStatementRow | undefined;
    try {
      [row] = await run();
    } catch (error) {
      // The drawn reference is taken: draw another (and build the emails that name it again).
      if (isUniqueViolation(error, 'booked_slots_reference_idx') && ++referenceAttempts < MAX_REFERENCE_ATTEMPTS) {
        statement = insertStatement(id, drawReference(), input, now);
        attempt--;
        continue;
      }
      // Lost the race for the seat: look again.
      if (lostSeat(error) && attempt < MAX_SEAT_ATTEMPTS) continue;
      if (lostSeat(error)) return { rejected: 'full' };
      // The type was deleted while the statement ran.
      if (isForeignKeyViolation(error)) return { rejected: 'unknown-type' };
      throw asRateLimited(error, rateLimitDetail);
    }
    return seatOutcome(row);
  }
}

function rateLimitDetail(bucket: string): string {
  return bucket.startsWith('confirmation')
    ? 'Too many confirmation emails to this address today. Please try again later or call us.'
    : 'Too many bookings from this address. Please try again later or call us.';
}

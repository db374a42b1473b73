/**
 * Availability and bookings against the database. The rules themselves are
 * the pure functions of src/lib/availability.ts; this module loads their
 * inputs and makes the booking atomic (docs/decisions/003).
 *
 * Round trips (after the connection is open): availability is one query
 * (the type with its windows, blocked dates and booking counts as JSON); an
 * uncontended booking is two: one read of the type's rules, checked by the
 * pure module, then one statement that inserts only if the date is still
 * not blocked, the time still a start time of a window and a seat is free,
 * counting the abuse limits in the same statement. A single statement is
 * atomic, so no BEGIN/COMMIT is needed.
 *
 * Capacity guarantee: the database's, not this module's. Every booking holds
 * a seat 1..max_slots_per_time, unique per (type, date, time), and a trigger
 * refuses a seat beyond the type's capacity. The insert picks the lowest
 * free seat; when a parallel booking took it first the unique index refuses
 * the row and the statement is retried (a bounded number of times: every
 * lost race means one more seat is gone).
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { appointmentTypes, bookedSlots, type AppointmentTypeRow } from '../../db/schema';
import {
  availabilityForRange,
  slotKey,
  timeRejection,
  type AvailabilityInput,
  type BlockedRange,
  type DayAvailability,
  type TimeRejection,
  type WeeklyWindow,
} from '../lib/availability';
import { berlinInstant, berlinWallClock, weekdayOf } from '../lib/berlin-time';
import { AppError } from '../lib/errors';
import { asRateLimited, databaseError, hitCte, purgeCte, withinLimitCheck, type RateLimitHit } from './rate-limit.server';
import type { KeyRing } from './reminders/keys.server';
import type { ReminderSecret } from './reminders/seal.server';
import { insertReminder, moveReminder } from './reminders/store.server';

type Executor = Database | Transaction;

const hhmm = (time: string) => time.slice(0, 5);

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** 256 random bits, URL-safe (DESIGN.md: at least 128 bits, only the hash is kept). */
export function newCancellationToken(): string {
  return randomBytes(32).toString('base64url');
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** JSON from the driver: node-postgres and PGlite parse it, a string is parsed here. */
function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/**
 * The type with everything its availability depends on, in ONE query: its
 * weekly windows, the blocked dates in [from, to] (its own and those of
 * every type) and, when asked, its booking counts per date and time.
 * Null when there is no such type.
 */
async function loadRules(
  db: Executor,
  typeId: string,
  from: string,
  to: string,
  withCounts: boolean,
): Promise<{
  type: AppointmentTypeRow;
  windows: WeeklyWindow[];
  blockedDates: string[];
  blockedRanges: BlockedRange[];
  counts: Array<[string, string, number]>;
} | null> {
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
    })
    .from(t)
    .where(eq(t.id, typeId));
  if (!row) return null;
  const { windows, blocked, counts: countRows, ...type } = row;
  const blocks = fromJson<Array<[string, string | null, string | null]>>(blocked);
  return {
    type,
    windows: fromJson<WeeklyWindow[]>(windows),
    // Whole days (no times) and partial-day ranges (DESIGN.md Practice operations).
    blockedDates: blocks.filter(([, start]) => start === null).map(([date]) => date),
    blockedRanges: blocks
      .filter(([, start, end]) => start !== null && end !== null)
      .map(([date, startTime, endTime]) => ({ date, startTime: startTime!, endTime: endTime! })),
    counts: fromJson<Array<[string, string, number]>>(countRows),
  };
}

export interface AvailabilityResponse {
  timezone: 'Europe/Berlin';
  type: string;
  days: DayAvailability[];
}

/** GET /api/availability: one database round trip. */
export async function getAvailability(
  db: Database,
  query: { type: string; from: string; to: string },
  now: Date = new Date(),
): Promise<AvailabilityResponse> {
  const rules = await loadRules(db, query.type, query.from, query.to, true);
  // A type paused online is not offered to patients at all (DESIGN.md Reception).
  if (!rules || !rules.type.onlineBookable) throw new AppError('not-found', 'Unknown consultation type.');
  const input: AvailabilityInput = {
    type: rules.type,
    windows: rules.windows,
    blockedDates: rules.blockedDates,
    blockedRanges: rules.blockedRanges,
    bookings: new Map(rules.counts.map(([date, time, n]) => [slotKey(date, hhmm(time)), Number(n)])),
    now,
  };
  return { timezone: 'Europe/Berlin', type: rules.type.id, days: availabilityForRange(query.from, query.to, input) };
}

export interface SlotRequest {
  /** Canonical (lower-case) uuid: the shared schemas lower-case it. */
  appointment_type_id: string;
  appointment_date: string;
  appointment_time: string;
}

export interface InsertBookingInput {
  typeId: string;
  date: string;
  /** HH:mm */
  time: string;
  /** SHA-256 of the cancellation token; null for a staff (phone) booking, which has no link. */
  tokenHash: string | null;
  /** `online` (default) or `phone` (a staff booking). */
  source?: BookingSource;
  /** Abuse limits counted in the same statement (online bookings); none for staff. */
  limits?: RateLimitHit[];
  /**
   * Set when `db` is a transaction (a staff booking with its audit entry):
   * every attempt runs under a savepoint, so a lost race does not abort the
   * surrounding transaction.
   */
  inTransaction?: boolean;
  now?: Date;
}

export type BookingSource = 'online' | 'phone';

export interface BookedRow {
  id: string;
  appointmentTypeId: string;
  appointmentDate: string;
  appointmentTime: string;
  seat: number;
  source: BookingSource;
  reference: string;
}

export type InsertBookingResult =
  | { booked: BookedRow }
  | { rejected: Extract<TimeRejection, 'full' | 'blocked' | 'not-a-slot'> | 'unknown-type' };

/** Every lost race means another seat is taken, so capacity (at most 10) + 1 attempts always end. */
const MAX_INSERT_ATTEMPTS = 11;
/** A drawn reference that is taken (1 in ~887 million per stored booking) draws again. */
const MAX_REFERENCE_ATTEMPTS = 5;

/**
 * Whether (date, time) of the type is blocked: a whole-day block, or a range
 * that the appointment [time, time + duration) overlaps (minutes, so nothing
 * wraps at midnight). For the type or for all. Shared by a new booking and a
 * move, so both honour partial-day blocks alike.
 */
function blockedCheck(typeId: string, date: string, time: string): SQL {
  return sql`exists (
      select 1 from blocked_dates b, appointment_types bt
      where bt.id = ${typeId}::uuid and b.date = ${date}::date
        and (b.appointment_type_id is null or b.appointment_type_id = bt.id)
        and (b.start_time is null or (
          extract(epoch from b.start_time) / 60 < extract(epoch from ${time}::time) / 60 + bt.slot_duration_minutes
          and extract(epoch from ${time}::time) < extract(epoch from b.end_time))))`;
}

/**
 * The CTEs `valid` (the type, when the time is not blocked and is a start
 * time of one of the weekday's windows) and `seat` (the lowest free seat of
 * the time): shared by a new booking and a move.
 */
function slotCtes(typeId: string, date: string, time: string): SQL {
  const weekday = weekdayOf(date);
  return sql`valid as (
      select t.id, t.max_slots_per_time as capacity
      from appointment_types t
      where t.id = ${typeId}::uuid
        and not ${blockedCheck(typeId, date, time)}
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

/**
 * The row a booking or move statement answers with: the written row (null
 * when none) and why not, read by `seatOutcome`.
 */
function outcomeColumns(typeId: string, date: string, time: string): SQL {
  return sql`(select row_to_json(booked) from booked) as booked,
      exists (select 1 from valid) as valid,
      exists (select 1 from appointment_types where id = ${typeId}::uuid) as type_exists,
      ${blockedCheck(typeId, date, time)} as blocked`;
}

/**
 * The one statement that books a seat: it inserts only if the type exists,
 * the time is not blocked (for the type or for all), the time is a start
 * time of one of the weekday's windows and a seat is free, taking the lowest
 * free seat; the abuse limits are counted in the same statement and abort it
 * when exceeded. Nothing in it depends on being called right after a rules
 * check, so staff bookings (no limits) and reschedules can build on it.
 */
function insertStatement(input: InsertBookingInput, now: Date): SQL {
  const { typeId, date, time, tokenHash } = input;
  const source = input.source ?? 'online';
  const limits = input.limits ?? [];
  const hitCtes = limits.map((hit, i) => sql`, ${sql.raw(`hit${i}`)} as (${hitCte(hit, now, sql`seat`)})`);
  const checks = limits.map((hit, i) => sql`${withinLimitCheck(hit, sql.raw(`hit${i}`))} as ${sql.raw(`within${i}`)}, `);
  return sql`
    with ${slotCtes(typeId, date, time)}${sql.join(hitCtes, sql``)},
    booked as (
      insert into booked_slots (appointment_type_id, appointment_date, appointment_time, seat, cancellation_token_hash, source)
      select ${typeId}::uuid, ${date}::date, ${time}::time, seat.seat, ${tokenHash}, ${source} from seat
      returning id, appointment_type_id, appointment_date::text, appointment_time::text, seat, source, reference
    ),
    purge as (${purgeCte(now, limits)})
    select
      ${sql.join(checks, sql``)}
      ${outcomeColumns(typeId, date, time)}`;
}

/**
 * The move of a booking: one UPDATE of its own row to the new date, time and
 * the lowest free seat there, guarded exactly like a new booking (same
 * `valid` and `seat` CTEs, same unique index and capacity trigger). The row
 * keeps its id, token hash, reference and source, so the emailed link, the
 * calendar UID and the reference stay.
 */
function moveStatement(bookingId: string, typeId: string, date: string, time: string): SQL {
  return sql`
    with ${slotCtes(typeId, date, time)},
    booked as (
      update booked_slots set appointment_date = ${date}::date, appointment_time = ${time}::time, seat = (select seat from seat)
      where id = ${bookingId}::uuid and exists (select 1 from seat)
      returning id, appointment_type_id, appointment_date::text, appointment_time::text, seat, source, reference
    )
    select
      ${outcomeColumns(typeId, date, time)}`;
}

type SeatStatementRow = { booked: unknown; valid: boolean; type_exists: boolean; blocked: boolean };

function seatOutcome(row: SeatStatementRow | undefined): InsertBookingResult {
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
      },
    };
  }
  if (!row.type_exists) return { rejected: 'unknown-type' };
  if (row.blocked) return { rejected: 'blocked' };
  if (!row.valid) return { rejected: 'not-a-slot' };
  return { rejected: 'full' };
}

/** A parallel booking took the seat first (unique index) or the capacity dropped meanwhile (trigger). */
function lostSeat(error: unknown): boolean {
  const e = databaseError(error);
  return (
    (e?.code === '23505' && e.constraint === 'booked_slots_type_date_time_seat_idx') ||
    (e?.code === '23514' && e.constraint === 'booked_slots_seat_within_capacity')
  );
}

/**
 * Books the lowest free seat of (type, date, time) in one statement (one
 * round trip when uncontended), or says why not. Throws 429 when a limit
 * in `limits` is exceeded; then nothing was written.
 */
export async function insertBooking(db: Executor, input: InsertBookingInput): Promise<InsertBookingResult> {
  const now = input.now ?? new Date();
  const statement = insertStatement(input, now);
  const run = async (): Promise<SeatStatementRow[]> =>
    input.inTransaction
      ? (db as Transaction).transaction(async (savepoint) => rowsOf<SeatStatementRow>(await savepoint.execute(statement)))
      : rowsOf<SeatStatementRow>(await db.execute(statement));
  let referenceAttempts = 0;
  for (let attempt = 1; ; attempt++) {
    let row: SeatStatementRow | undefined;
    try {
      [row] = await run();
    } catch (error) {
      const e = databaseError(error);
      // The drawn reference is taken: the next run draws a new one (the column default).
      if (e?.code === '23505' && e.constraint === 'booked_slots_reference_idx' && ++referenceAttempts < MAX_REFERENCE_ATTEMPTS) {
        attempt--;
        continue;
      }
      // Lost the race for the seat: look again.
      if (lostSeat(error) && attempt < MAX_INSERT_ATTEMPTS) continue;
      if (lostSeat(error)) return { rejected: 'full' };
      // The type was deleted while the statement ran.
      if (e?.code === '23503') return { rejected: 'unknown-type' };
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

export interface CreatedBooking {
  booking: {
    id: string;
    appointment_type_id: string;
    appointment_date: string;
    appointment_time: string;
    reference: string;
    source: BookingSource;
  };
  type: AppointmentTypeRow;
  /** The only copy of the token: it goes into the patient's email, never the database. Null for a phone booking. */
  token: string | null;
}

/** The patient asked for a reminder (DESIGN.md, Reminders): what to seal, and the keys. */
export interface ReminderRequest {
  secret: Omit<ReminderSecret, 'token'>;
  keys: KeyRing;
}

/**
 * The type's rules for one date, checked for one time (windows, notice,
 * advance limit, blocks; capacity is the insert statement's): 409
 * slot-unavailable with the reason when the time breaks one.
 */
async function checkedRules(db: Executor, typeId: string, date: string, time: string, now: Date) {
  const rules = await loadRules(db, typeId, date, date, false);
  if (!rules) throw new AppError('slot-unavailable', slotUnavailableDetail('unknown-type'));
  const rejection = timeRejection(date, time, {
    type: rules.type,
    windows: rules.windows,
    blockedDates: rules.blockedDates,
    blockedRanges: rules.blockedRanges,
    bookings: new Map(),
    now,
  });
  if (rejection) throw new AppError('slot-unavailable', slotUnavailableDetail(rejection));
  return rules;
}

/**
 * POST /api/bookings: two round trips when uncontended. First the type's
 * rules for the date (the pure module re-checks every rule the wizard
 * showed: past, advance limit, blocked, window, DST, passed time), then
 * insertBooking, which re-checks in SQL what may have changed meanwhile
 * (blocked, windows, capacity) and counts the abuse limits.
 */
export async function createBooking(
  db: Database,
  slot: SlotRequest,
  options: {
    now?: Date;
    limits?: RateLimitHit[];
    reminder?: ReminderRequest;
    /** `phone`: a staff booking (no token, no limits, no reminder), run inside the audit's transaction. */
    source?: BookingSource;
  } = {},
): Promise<CreatedBooking> {
  const source = options.source ?? 'online';
  const now = options.now ?? new Date();
  const date = slot.appointment_date;
  const time = slot.appointment_time;
  const typeId = slot.appointment_type_id.toLowerCase();
  const rules = await checkedRules(db, typeId, date, time, now);
  // Paused online: staff may still book it, patients may not.
  if (source === 'online' && !rules.type.onlineBookable) throw new AppError('slot-unavailable', slotUnavailableDetail('unknown-type'));
  const token = source === 'online' ? newCancellationToken() : null;
  const result = await insertBooking(db, {
    typeId,
    date,
    time,
    tokenHash: token === null ? null : hashToken(token),
    source,
    limits: source === 'online' ? options.limits : undefined,
    inTransaction: source === 'phone',
    now,
  });
  if ('rejected' in result) throw new AppError('slot-unavailable', slotUnavailableDetail(result.rejected));
  if (options.reminder && token !== null) {
    // A third statement only for the patients who ticked the box (DESIGN.md, Reminders).
    const secret = { ...options.reminder.secret, token };
    await insertReminder(db, { bookingId: result.booked.id, date, time, secret, keys: options.reminder.keys }, now);
  }
  return {
    booking: {
      id: result.booked.id,
      appointment_type_id: result.booked.appointmentTypeId,
      appointment_date: result.booked.appointmentDate,
      appointment_time: hhmm(result.booked.appointmentTime),
      reference: result.booked.reference,
      source: result.booked.source,
    },
    type: rules.type,
    token,
  };
}

function slotUnavailableDetail(rejection: TimeRejection | 'unknown-type'): string {
  switch (rejection) {
    case 'full':
      return 'This time has just been booked by someone else.';
    case 'passed':
      return 'This time has already passed.';
    case 'not-a-slot':
      return 'This is not a bookable start time for this consultation type.';
    case 'unknown-type':
      return 'This consultation type is not offered (any more).';
    default:
      return 'This date cannot be booked for this consultation type.';
  }
}

export interface BookingByToken {
  id: string;
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  appointment_date: string;
  appointment_time: string;
  slot_duration_minutes: number;
  reference: string;
  price_cents: number | null;
}

async function findByToken(db: Executor, token: string, lock = false): Promise<BookingByToken | null> {
  const query = db
    .select({
      id: bookedSlots.id,
      appointment_type_id: bookedSlots.appointmentTypeId,
      type_name: appointmentTypes.name,
      type_name_en: appointmentTypes.nameEn,
      appointment_date: bookedSlots.appointmentDate,
      appointment_time: bookedSlots.appointmentTime,
      slot_duration_minutes: appointmentTypes.slotDurationMinutes,
      reference: bookedSlots.reference,
      price_cents: appointmentTypes.priceCents,
    })
    .from(bookedSlots)
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
    .where(eq(bookedSlots.cancellationTokenHash, hashToken(token)));
  const [row] = lock ? await query.for('update', { of: bookedSlots }) : await query;
  return row ? { ...row, appointment_time: hhmm(row.appointment_time) } : null;
}

/** Whether the appointment has begun (Berlin wall clock), after which it cannot be cancelled online. */
export function hasBegun(date: string, time: string, now: Date): boolean {
  const start = berlinInstant(date, time);
  if (start) return start.getTime() <= now.getTime();
  const clock = berlinWallClock(now);
  return `${date} ${time}` <= `${clock.date} ${clock.time}`;
}

/** The appointment a cancellation link points to: 404 unknown or cancelled, 409 once begun. */
export async function bookingForCancellation(db: Database, token: string, now: Date = new Date()): Promise<BookingByToken> {
  const booking = await findByToken(db, token);
  if (!booking) throw new AppError('not-found', 'This cancellation link is unknown or was already used.');
  if (hasBegun(booking.appointment_date, booking.appointment_time, now)) {
    throw new AppError('too-late', 'This appointment has already begun and can no longer be cancelled online.');
  }
  return booking;
}

/** Cancels the appointment and frees its slot; a second use of the link finds nothing (404). */
export async function cancelBooking(db: Database, token: string, now: Date = new Date()): Promise<BookingByToken> {
  return db.transaction(async (tx) => {
    const booking = await findByToken(tx, token, true);
    if (!booking) throw new AppError('not-found', 'This cancellation link is unknown or was already used.');
    if (hasBegun(booking.appointment_date, booking.appointment_time, now)) {
      throw new AppError('too-late', 'This appointment has already begun and can no longer be cancelled online.');
    }
    await tx.delete(bookedSlots).where(eq(bookedSlots.id, booking.id));
    return booking;
  });
}

/**
 * The practice's notification of a booking failed: mark the booking so the
 * list and the dashboard show that an unknown patient is to be expected.
 * One extra statement, only in that failure case.
 */
export async function markPracticeNotNotified(db: Database, bookingId: string): Promise<void> {
  await db.update(bookedSlots).set({ practiceNotified: false }).where(eq(bookedSlots.id, bookingId));
}

export interface RescheduledBooking {
  booking: { id: string; appointment_type_id: string; appointment_date: string; appointment_time: string; reference: string };
  /** Where it was. */
  old: { date: string; time: string };
  type: AppointmentTypeRow;
  /** What became of its reminder (none when the patient did not ask for one). */
  reminder: 'moved' | 'deleted' | 'none';
}

/**
 * POST /api/bookings/reschedule: moves the booking of a cancellation link to
 * another time of the same type, in ONE transaction: the booking's row is
 * locked, every rule is re-checked (the pure module, then the SQL guard of a
 * new booking: blocked, window, capacity by seat + unique index + trigger),
 * the row takes the new time's lowest free seat (its old seat is freed by the
 * same UPDATE) and its reminder follows. Anything failing rolls everything
 * back: the old time stays booked. 404 unknown token, 409 too-late once the
 * current appointment has begun, 409 slot-unavailable when the new time
 * cannot be booked or is the appointment's own time.
 */
export async function rescheduleBooking(
  db: Database,
  request: { token: string; appointment_date: string; appointment_time: string },
  now: Date = new Date(),
): Promise<RescheduledBooking> {
  const date = request.appointment_date;
  const time = request.appointment_time;
  return db.transaction(async (tx) => {
    const booking = await findByToken(tx, request.token, true);
    if (!booking) throw new AppError('not-found', 'This link is unknown or the appointment was cancelled.');
    if (hasBegun(booking.appointment_date, booking.appointment_time, now)) {
      throw new AppError('too-late', 'This appointment has already begun and can no longer be moved online.');
    }
    if (booking.appointment_date === date && booking.appointment_time === time) {
      throw new AppError('slot-unavailable', 'This is already the appointment\'s time.');
    }
    const typeId = booking.appointment_type_id;
    const rules = await checkedRules(tx, typeId, date, time, now);
    // Paused online: the link still cancels, but only the practice moves it.
    if (!rules.type.onlineBookable) throw new AppError('slot-unavailable', slotUnavailableDetail('unknown-type'));
    const statement = moveStatement(booking.id, typeId, date, time);
    let result: InsertBookingResult | undefined;
    for (let attempt = 1; !result; attempt++) {
      try {
        // A savepoint per attempt: a lost race aborts only the attempt, not the transaction.
        const [row] = await tx.transaction(async (sp) => rowsOf<SeatStatementRow>(await sp.execute(statement)));
        result = seatOutcome(row);
      } catch (error) {
        if (!lostSeat(error)) throw error;
        if (attempt >= MAX_INSERT_ATTEMPTS) result = { rejected: 'full' };
      }
    }
    if ('rejected' in result) throw new AppError('slot-unavailable', slotUnavailableDetail(result.rejected));
    const reminder = await moveReminder(tx, booking.id, date, time, now);
    return {
      booking: { id: booking.id, appointment_type_id: typeId, appointment_date: date, appointment_time: time, reference: booking.reference },
      old: { date: booking.appointment_date, time: booking.appointment_time },
      type: rules.type,
      reminder,
    };
  });
}

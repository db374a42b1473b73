/**
 * Free times for the waitlist, and when a time became free
 * (docs/decisions/038-waitlist-offers-for-freed-times.md).
 *
 * A time is offered only to entries made before it became free: a time that
 * was free when the patient asked was shown on the page to book at once, and
 * is never "frei geworden" for them. So every change that can free a time
 * writes when it did, in its own transaction, to `waitlist_freed_times`:
 * - a seat freed at one time (a patient's or the practice's cancellation, the
 *   old time of a move): `noteFreedSeat` after the change; the time became
 *   free exactly when it now has one free seat (it had none before);
 * - anything else (a block changed or lifted, time windows added or changed,
 *   a type changed or put back online): `recordingFreedTimes` around the
 *   change compares the free times before and after it.
 * Both look only at types and days some entry waits for (nothing to do, and
 * nothing written, otherwise): an entry made later sees what is free then.
 */
import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { waitlistEntries, waitlistFreedTimes, type AppointmentTypeRow } from '../../../db/schema';
import { availabilityForRange, slotKey } from '../../lib/availability';
import { berlinToday } from '../../lib/berlin-time';
import { hhmm } from '../bookings/shared.server';
import { loadRules } from '../bookings/slot-sql.server';

export interface FreeTime {
  date: string;
  time: string;
  /** Seats still free at this time. */
  free: number;
}

/** The free times of a type in [from, to] by the wizard's rules, with the number of free seats; null for a type paused online or gone. */
export async function freeTimesOf(db: Executor, typeId: string, from: string, to: string, now: Date): Promise<{ type: AppointmentTypeRow; times: FreeTime[] } | null> {
  const loaded = await loadRules(db, typeId, from, to, true);
  if (!loaded || !loaded.type.onlineBookable) return null;
  const bookings = new Map(loaded.counts.map(([date, time, n]) => [slotKey(date, hhmm(time)), Number(n)]));
  const days = availabilityForRange(from, to, {
    type: loaded.type,
    windows: loaded.windows,
    blockedDates: loaded.blockedDates,
    blockedRanges: loaded.blockedRanges,
    // Closed days are offered to nobody (docs/decisions/039-public-holidays.md).
    closedDates: loaded.closedDays.map((d) => d.date),
    bookings,
    now,
  });
  const times = days.flatMap((day) =>
    day.times.map((time) => ({ date: day.date, time, free: loaded.type.maxSlotsPerTime - (bookings.get(slotKey(day.date, time)) ?? 0) })),
  );
  return { type: loaded.type, times };
}

/** Per type, the days entries wait for (from today): the smallest `from` and largest `to` of its entries, cut to [from, to] when given. */
async function watchedRanges(db: Executor, scope: { typeId?: string; from?: string; to?: string }, now: Date): Promise<Array<{ typeId: string; from: string; to: string }>> {
  const today = berlinToday(now);
  const from = scope.from && scope.from > today ? scope.from : today;
  const rows = await db
    .select({
      typeId: waitlistEntries.appointmentTypeId,
      from: sql<string>`min(${waitlistEntries.fromDate})::text`,
      to: sql<string>`max(${waitlistEntries.toDate})::text`,
    })
    .from(waitlistEntries)
    .where(
      and(
        scope.typeId ? eq(waitlistEntries.appointmentTypeId, scope.typeId) : undefined,
        gte(waitlistEntries.toDate, from),
        scope.to ? lte(waitlistEntries.fromDate, scope.to) : undefined,
      ),
    )
    .groupBy(waitlistEntries.appointmentTypeId);
  return rows
    .map((r) => ({ typeId: r.typeId, from: r.from > from ? r.from : from, to: scope.to && scope.to < r.to ? scope.to : r.to }))
    .filter((r) => r.from <= r.to);
}

async function freeKeys(db: Executor, ranges: Array<{ typeId: string; from: string; to: string }>, now: Date): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const r of ranges) {
    const free = await freeTimesOf(db, r.typeId, r.from, r.to, now);
    for (const t of free?.times ?? []) keys.add(`${r.typeId} ${slotKey(t.date, t.time)}`);
  }
  return keys;
}

/** Writes (type, date, time) as freed at `now` (a later freeing moves the mark forward). */
async function markFreed(db: Executor, freed: Array<{ typeId: string; date: string; time: string }>, now: Date): Promise<void> {
  if (!freed.length) return;
  await db
    .insert(waitlistFreedTimes)
    .values(freed.map((f) => ({ appointmentTypeId: f.typeId, appointmentDate: f.date, appointmentTime: f.time, freedAt: now })))
    .onConflictDoUpdate({
      target: [waitlistFreedTimes.appointmentTypeId, waitlistFreedTimes.appointmentDate, waitlistFreedTimes.appointmentTime],
      set: { freedAt: sql`greatest(${waitlistFreedTimes.freedAt}, excluded.freed_at)` },
    });
}

/**
 * After one seat at (date, time) was freed in `db`'s transaction (a
 * cancellation, the old time of a move): the time became free if it now has
 * exactly one free seat (so none before), by the wizard's rules.
 */
export async function noteFreedSeat(db: Executor, seat: { typeId: string; date: string; time: string }, now: Date = new Date()): Promise<void> {
  const [watched] = await watchedRanges(db, { typeId: seat.typeId, from: seat.date, to: seat.date }, now);
  if (!watched || seat.date < watched.from) return;
  const free = await freeTimesOf(db, seat.typeId, seat.date, seat.date, now);
  const time = hhmm(seat.time);
  if (free?.times.some((t) => t.time === time && t.free === 1)) await markFreed(db, [{ typeId: seat.typeId, date: seat.date, time }], now);
}

/**
 * Runs `change` (in `db`'s transaction) and records every time of the
 * watched types and days that is free after it and was not before: a block
 * lifted or changed, windows added or changed, a type changed. `typeId`
 * narrows it to one type; every type otherwise (a block for all types).
 */
export async function recordingFreedTimes<T>(db: Executor, scope: { typeId?: string }, change: () => Promise<T>, now: Date = new Date()): Promise<T> {
  const ranges = await watchedRanges(db, scope, now);
  if (!ranges.length) return change();
  const before = await freeKeys(db, ranges, now);
  const result = await change();
  const after = await freeKeys(db, ranges, now);
  const freed = [...after]
    .filter((key) => !before.has(key))
    .map((key) => {
      const [typeId, date, time] = key.split(' ') as [string, string, string];
      return { typeId, date, time };
    });
  await markFreed(db, freed, now);
  return result;
}

/** When each time of `typeIds` in [from, to] last became free (`type date HH:mm` → instant). */
export async function freedTimesOf(db: Executor, typeIds: string[], from: string): Promise<Map<string, Date>> {
  if (!typeIds.length) return new Map();
  const rows = await db
    .select()
    .from(waitlistFreedTimes)
    .where(and(inArray(waitlistFreedTimes.appointmentTypeId, typeIds), gte(waitlistFreedTimes.appointmentDate, from)));
  return new Map(rows.map((r) => [`${r.appointmentTypeId} ${slotKey(r.appointmentDate, hhmm(r.appointmentTime))}`, r.freedAt]));
}

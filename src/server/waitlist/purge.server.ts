/**
 * The waitlist's purge (docs/decisions/032-waitlist.md), run by the
 * every-minute job (sweep.server.ts) on its own: a module apart from the
 * entries' and the free times' code, which a quiet minute never loads.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { berlinToday } from '../../lib/berlin-time';
import { rowsOf } from '../../../db/rows';

/**
 * Deletes the entries whose range has passed or whose booking's day has
 * ended (Berlin), the offers of times before today and the marks of times
 * freed before today (free-times.server.ts needs them for days to come
 * only); answers what it deleted, and whether any entry is left (the
 * sweep has nothing to offer to an empty waitlist). One statement, whatever the number of rows (each delete a
 * part of it: a cold job waits for every round trip); a booking's
 * cancellation deletes its entry by the foreign key.
 */
export async function purgeWaitlist(db: Database, now: Date = new Date()): Promise<{ entries: number; offers: number; waiting: boolean }> {
  const today = berlinToday(now);
  const [row] = rowsOf<{ entries: number; offers: number; waiting: boolean }>(
    await db.execute(sql`
      with entries as (
        delete from waitlist_entries e
        where e.to_date < ${today}::date
          or exists (select 1 from booked_slots b where b.id = e.booking_id and b.appointment_date < ${today}::date)
        returning e.id),
      offers as (delete from waitlist_offers where appointment_date < ${today}::date returning id),
      -- Run whether or not the select reads it, as every data-modifying part of a WITH is.
      freed as (delete from waitlist_freed_times where appointment_date < ${today}::date returning appointment_type_id)
      select (select count(*) from entries)::int as entries, (select count(*) from offers)::int as offers,
        exists (select 1 from waitlist_entries w where w.id not in (select id from entries)) as waiting`),
  );
  return row!;
}

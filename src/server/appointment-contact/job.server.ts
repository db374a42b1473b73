/**
 * The scheduled job of the appointment contact (docs/architecture.md,
 * Privacy; docs/decisions/009, 026, 035): deletes the contacts of
 * appointments whose Berlin day has ended (also those no configured key
 * opens) and the tombstones whose date has passed, and queues every due
 * reminder in the email outbox (reminders.server.ts, loaded in a minute
 * that has one due). Netlify runs it every minute
 * (netlify/functions/send-reminders.ts), and so does the local server; the
 * outbox's delivery (email/delivery.server.ts) sends what it queued in the
 * same run.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { getDb } from '../database.server';
import { berlinToday } from '../../lib/berlin-time';
import { rowsOf } from '../../../db/rows';
import { readEnv } from '../env.server';
import { dataKeyRingIfAny } from './keys.server';
import type { ReminderJobResult } from './reminders.server';
import { deleteExpiredShortLinks } from '../sms/short-links.server';

export interface PurgeResult {
  /** Contacts of appointments whose day (Europe/Berlin) has ended. */
  contacts: number;
  /** Tombstones of cancellations whose date has passed (with the contacts practice cancellations keep). */
  tombstones: number;
}

/**
 * Deletes every contact whose appointment's day has ended, at Berlin
 * midnight (docs/decisions/026): staff see who is coming all day, arrival
 * marks included, and nothing of the patient outlives the day. Opened or
 * not, so a contact under a removed key goes too. Also every tombstone of a
 * past date, and with it the sealed contact a practice cancellation keeps
 * so staff can call (docs/decisions/035), and the short links past their
 * expiry. One statement, whatever the number of rows (each delete a part
 * of it: a cold job waits for every round trip), which also tells whether
 * a reminder of a contact that stays is due; the booking row (reference,
 * type, time, arrival) stays.
 */
export async function purgeEnded(db: Database, now: Date = new Date()): Promise<PurgeResult & { remindersDue: boolean }> {
  const today = berlinToday(now);
  const [row] = rowsOf<PurgeResult & { reminders_due: boolean }>(
    await db.execute(sql`
      with contacts as (
        delete from appointment_contacts c using booked_slots b
        where b.id = c.booking_id and b.appointment_date < ${today}::date
        returning c.booking_id),
      -- Run whether or not the select reads it, as every data-modifying part of a WITH is.
      links as (${deleteExpiredShortLinks(now)}),
      tombstones as (delete from cancelled_bookings where appointment_date < ${today}::date returning id)
      select (select count(*) from contacts)::int as contacts, (select count(*) from tombstones)::int as tombstones,
        exists (select 1 from appointment_contacts a where a.remind_at <= ${now.toISOString()}::timestamptz
          and a.booking_id not in (select booking_id from contacts)) as reminders_due`),
  );
  return { contacts: row!.contacts, tombstones: row!.tombstones, remindersDue: row!.reminders_due };
}

export type ContactJobResult = ReminderJobResult & { purged: PurgeResult };

/** The contact's part of the scheduled job: this process's database and keys. */
export async function runReminderJob(now: Date = new Date()): Promise<ContactJobResult> {
  const env = readEnv();
  const db = await getDb();
  // The purge first: it also tells whether any reminder is due (most minutes none is, and nothing more is read).
  const { remindersDue, ...purged } = await purgeEnded(db, now);
  // No key: due reminders wait until one is configured or their appointment begins; the purge needs none.
  let result: ReminderJobResult = { queued: 0, expired: 0, failed: 0 };
  if (remindersDue) {
    const { queueDueReminders } = await import('./reminders.server');
    result = await queueDueReminders(db, { siteUrl: env.SITE_URL, keys: await dataKeyRingIfAny(), now });
  }
  if (result.queued || result.expired || result.failed) {
    console.info(`reminders: ${result.queued} queued, ${result.expired} expired, ${result.failed} failed`);
  }
  if (purged.contacts || purged.tombstones) {
    console.info(`purged: ${purged.contacts} appointment contacts, ${purged.tombstones} cancelled bookings`);
  }
  return { ...result, purged };
}

export interface ReminderSchedule {
  /** Stops the interval and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Runs the job every `intervalMs` in this process (the local server); runs never overlap. */
export function startReminderSchedule(intervalMs = 60_000, job: () => Promise<unknown> = () => runReminderJob()): ReminderSchedule {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = job()
      .then(() => undefined)
      .catch((error: unknown) => console.warn(`reminder job failed: ${(error as Error)?.name ?? 'unknown'}`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

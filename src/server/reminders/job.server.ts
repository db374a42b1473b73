/**
 * The reminder job (DESIGN.md, Reminders): sends every due reminder through
 * the email port and deletes it. Netlify runs it every 15 minutes
 * (netlify/functions/send-reminders.ts), the local server every minute.
 *
 * It claims due rows with `FOR UPDATE … SKIP LOCKED` in a transaction,
 * sends them and deletes them before committing: a concurrent run skips the
 * claimed rows, and after the commit they are gone, so no reminder goes
 * twice. A send that fails keeps its row for the next run; a row whose
 * appointment has begun is deleted unsent.
 */
import { and, asc, eq, inArray, lte, notInArray } from 'drizzle-orm';
import { getDb, type Database } from '../../../db/client';
import { appointmentTypes, bookedSlots, reminders } from '../../../db/schema';
import { buildReminderEmail } from '../../lib/reminder-email';
import { hasBegun } from '../bookings.server';
import { createEmailSender, type EmailSender } from '../email/email.server';
import { readEnv } from '../env.server';
import { reminderKeyRing, type KeyRing } from './keys.server';
import { open } from './seal.server';

export interface ReminderJobOptions {
  sender: EmailSender;
  siteUrl: string;
  /** Null when no key is configured: nothing can be opened, rows wait (and expire). */
  keys: KeyRing | null;
  now?: Date;
  /** Rows claimed per transaction. */
  batchSize?: number;
}

export interface ReminderJobResult {
  /** Sent and deleted. */
  sent: number;
  /** Deleted unsent: the appointment had begun. */
  expired: number;
  /** Kept for the next run: the send failed or the value could not be opened. */
  failed: number;
}

/** Sends every due reminder and deletes it; safe to run several times at once. */
export async function sendDueReminders(db: Database, options: ReminderJobOptions): Promise<ReminderJobResult> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? 100;
  const result: ReminderJobResult = { sent: 0, expired: 0, failed: 0 };
  // Rows this run could not send stay locked by nobody; skip them on the following batches of this run.
  const failedIds: string[] = [];
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const rows = await tx
        .select({
          id: reminders.id,
          bookingId: reminders.bookingId,
          keyId: reminders.keyId,
          sealed: reminders.sealed,
          date: bookedSlots.appointmentDate,
          time: bookedSlots.appointmentTime,
          typeName: appointmentTypes.name,
          typeNameEn: appointmentTypes.nameEn,
          priceCents: appointmentTypes.priceCents,
        })
        .from(reminders)
        .innerJoin(bookedSlots, eq(bookedSlots.id, reminders.bookingId))
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
        .where(and(lte(reminders.sendAt, now), failedIds.length ? notInArray(reminders.id, failedIds) : undefined))
        .orderBy(asc(reminders.sendAt))
        .limit(batchSize)
        .for('update', { of: reminders, skipLocked: true });
      const done: string[] = [];
      await Promise.all(
        rows.map(async (row) => {
          const time = row.time.slice(0, 5);
          if (hasBegun(row.date, time, now)) {
            done.push(row.id);
            result.expired++;
            return;
          }
          try {
            if (!options.keys) throw new Error('no key');
            const secret = open({ keyId: row.keyId, sealed: row.sealed }, row.bookingId, options.keys);
            await options.sender.send(
              buildReminderEmail(
                {
                  to: secret.email,
                  firstName: secret.firstName,
                  language: secret.language,
                  token: secret.token,
                  type: { name: row.typeName, nameEn: row.typeNameEn, priceCents: row.priceCents },
                  date: row.date,
                  time,
                },
                options.siteUrl,
              ),
            );
            done.push(row.id);
            result.sent++;
          } catch (error) {
            // By kind only: never an address.
            console.warn(`reminder not sent: ${(error as Error)?.name ?? 'unknown'}`);
            failedIds.push(row.id);
            result.failed++;
          }
        }),
      );
      if (done.length) await tx.delete(reminders).where(inArray(reminders.id, done));
      return rows.length;
    });
    if (claimed < batchSize) return result;
  }
}

/** The job as the scheduled function and the local server run it: this process's database, email and keys. */
export async function runReminderJob(now: Date = new Date()): Promise<ReminderJobResult> {
  const env = readEnv();
  const db = await getDb();
  let keys: KeyRing | null = null;
  try {
    keys = await reminderKeyRing();
  } catch {
    // Already logged by kind; due rows wait until a key is configured or their appointment begins.
  }
  const result = await sendDueReminders(db, { sender: createEmailSender(env), siteUrl: env.SITE_URL, keys, now });
  if (result.sent || result.expired || result.failed) {
    console.info(`reminders: ${result.sent} sent, ${result.expired} expired, ${result.failed} failed`);
  }
  return result;
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

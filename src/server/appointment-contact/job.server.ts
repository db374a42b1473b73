/**
 * The scheduled job of the appointment contact (docs/architecture.md,
 * Privacy; docs/decisions/009, 026, 035): queues every due reminder in the
 * email outbox, deletes the contacts of appointments whose Berlin day has
 * ended (also those no configured key opens) and the tombstones whose date
 * has passed. Netlify runs it every
 * minute (netlify/functions/send-reminders.ts), and so does the local
 * server; the outbox's delivery (email/delivery.server.ts) sends what it
 * queued in the same run.
 *
 * Reminders are claimed with `FOR UPDATE … SKIP LOCKED` on the contact AND
 * its booking, queued, and marked done (remind_at null) in one transaction:
 * a concurrent run skips claimed rows, so no reminder is queued twice; a
 * move holds the booking's lock, so the job either queues before the move
 * (and the move then schedules a reminder for the new time) or skips the
 * row and finds it moved next time, never a reminder for a time that was
 * just replaced. A value no key opens keeps its time for the next run; an
 * appointment that has begun gets no reminder.
 */
import { and, asc, eq, inArray, lte, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { getDb } from '../database.server';
import { appointmentContacts, appointmentTypes, bookedSlots, cancelledBookings } from '../../../db/schema';
import { berlinToday } from '../../lib/berlin-time';
import { hasBegun } from '../bookings/shared.server';
import { enqueueEmails, type QueuedEmail } from '../email/queue.server';
import { reminderSms } from '../sms/notices.server';
import { enqueueSms, type SmsPlan } from '../sms/queue.server';
import { readEnv } from '../env.server';
import { dataKeyRingIfAny, type KeyRing } from './keys.server';
import { open } from './seal.server';
import { purgeShortLinks } from '../sms/short-links.server';

export interface ReminderJobOptions {
  siteUrl: string;
  /** Null when no key is configured: nothing can be opened, reminders wait (and lapse). */
  keys: KeyRing | null;
  now?: Date;
  /** Rows claimed per transaction. */
  batchSize?: number;
}

export interface ReminderJobResult {
  /** Queued in the outbox. */
  queued: number;
  /** Not queued: the appointment had begun. */
  expired: number;
  /** Kept for the next run: the value could not be opened. */
  failed: number;
}

/** Queues every due reminder once; safe to run several times at once, and beside moves. */
export async function queueDueReminders(db: Database, options: ReminderJobOptions): Promise<ReminderJobResult> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? 100;
  const result: ReminderJobResult = { queued: 0, expired: 0, failed: 0 };
  // Rows this run could not open stay due; skip them on the following batches of this run.
  const failedIds: string[] = [];
  // Most minutes have nothing due: one plain read then, instead of a transaction that claims nothing.
  const [due] = await db.select({ id: appointmentContacts.bookingId }).from(appointmentContacts).where(lte(appointmentContacts.remindAt, now)).limit(1);
  if (!due) return result;
  // The reminder email's texts, loaded before any transaction claims (and locks) a contact and its booking.
  const { buildReminderEmail } = await import('../email/messages/reminder.server');
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const rows = await tx
        .select({
          bookingId: appointmentContacts.bookingId,
          keyId: appointmentContacts.keyId,
          sealed: appointmentContacts.sealed,
          date: bookedSlots.appointmentDate,
          time: bookedSlots.appointmentTime,
          typeName: appointmentTypes.name,
          typeNameEn: appointmentTypes.nameEn,
          priceCents: appointmentTypes.priceCents,
        })
        .from(appointmentContacts)
        .innerJoin(bookedSlots, eq(bookedSlots.id, appointmentContacts.bookingId))
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, bookedSlots.appointmentTypeId))
        .where(
          and(
            lte(appointmentContacts.remindAt, now),
            failedIds.length ? notInArray(appointmentContacts.bookingId, failedIds) : undefined,
          ),
        )
        .orderBy(asc(appointmentContacts.remindAt))
        .limit(batchSize)
        .for('update', { of: [appointmentContacts, bookedSlots], skipLocked: true });
      const done: string[] = [];
      const emails: QueuedEmail[] = [];
      const texts: SmsPlan[] = [];
      for (const row of rows) {
        const time = row.time.slice(0, 5);
        if (hasBegun(row.date, time, now)) {
          done.push(row.bookingId);
          result.expired++;
          continue;
        }
        try {
          if (!options.keys) throw new Error('no key');
          const secret = open({ keyId: row.keyId, sealed: row.sealed }, row.bookingId, options.keys);
          // A patient who chose SMS gets the reminder by SMS (docs/decisions/043-sms-second-channel.md), else by email.
          const sms = reminderSms({ contact: secret, bookingId: row.bookingId, date: row.date, time });
          if (sms) {
            texts.push(sms);
          } else {
            const type = { name: row.typeName, nameEn: row.typeNameEn, priceCents: row.priceCents };
            const message = buildReminderEmail(
              { to: secret.email, firstName: secret.firstName, language: secret.language, token: secret.token, type, date: row.date, time },
              options.siteUrl,
            );
            emails.push({ message, kind: 'reminder', audience: 'patient', bookingId: row.bookingId });
          }
          done.push(row.bookingId);
          result.queued++;
        } catch (error) {
          // By kind only: never an address.
          console.warn(`reminder not queued: ${(error as Error)?.name ?? 'unknown'}`);
          failedIds.push(row.bookingId);
          result.failed++;
        }
      }
      if (options.keys) await enqueueEmails(tx, emails, options.keys, now);
      if (options.keys && texts.length) await enqueueSms(tx, texts, options.keys, now);
      if (done.length) {
        await tx.update(appointmentContacts).set({ remindAt: null }).where(inArray(appointmentContacts.bookingId, done));
      }
      return rows.length;
    });
    if (claimed < batchSize) return result;
  }
}

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
 * so staff can call (docs/decisions/035). Two statements, whatever the
 * number of rows; the booking row (reference, type, time, arrival) stays.
 */
export async function purgeEnded(db: Database, now: Date = new Date()): Promise<PurgeResult> {
  const today = berlinToday(now);
  const contacts = await db.execute(sql`
    delete from appointment_contacts c using booked_slots b
    where b.id = c.booking_id and b.appointment_date < ${today}::date
    returning c.booking_id`);
  await purgeShortLinks(db, now);
  const tombstones = await db
    .delete(cancelledBookings)
    .where(sql`${cancelledBookings.appointmentDate} < ${today}::date`)
    .returning({ id: cancelledBookings.id });
  return { contacts: (contacts as unknown as { rows: unknown[] }).rows.length, tombstones: tombstones.length };
}

export type ContactJobResult = ReminderJobResult & { purged: PurgeResult };

/** The contact's part of the scheduled job: this process's database and keys. */
export async function runReminderJob(now: Date = new Date()): Promise<ContactJobResult> {
  const env = readEnv();
  const db = await getDb();
  // No key: due reminders wait until one is configured or their appointment begins; the purge needs none.
  const keys = await dataKeyRingIfAny();
  const result = await queueDueReminders(db, { siteUrl: env.SITE_URL, keys, now });
  const purged = await purgeEnded(db, now);
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

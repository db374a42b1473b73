/**
 * Queues every due appointment reminder in the email outbox (or as an SMS
 * where the patient chose one), for the scheduled job
 * (appointment-contact/job.server.ts), which loads this module in a minute
 * that has a reminder due (docs/architecture.md, Privacy; docs/decisions/009,
 * 026, 035).
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
import { and, asc, eq, inArray, lte, notInArray } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentContacts, appointmentTypes, bookedSlots } from '../../../db/schema';
import { hasBegun } from '../bookings/shared.server';
import { enqueueEmails, type QueuedEmail } from '../email/queue.server';
import { reminderSms } from '../sms/notices.server';
import { enqueueSms, type SmsPlan } from '../sms/queue.server';
import type { KeyRing } from './keys.server';
import { open } from './seal.server';

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

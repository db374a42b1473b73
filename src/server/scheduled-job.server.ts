/**
 * The every-minute job, as Netlify's scheduled function
 * (netlify/functions/send-reminders.ts) and the local server run it:
 * reminders queued and day-ended contacts purged
 * (appointment-contact/job.server.ts), the waitlist's offers and purge
 * (waitlist/sweep.server.ts), then the email outbox: whatever is due is
 * sent, old bodies and rows are deleted (email/delivery.server.ts,
 * docs/decisions/035). Counts only, never anything of a patient.
 */
import { runReminderJob } from './appointment-contact/job.server';
import { getDb } from './database.server';
import { purgeOutbox, runDelivery } from './email/delivery.server';
import { runWaitlistJob } from './waitlist/sweep.server';

export async function runScheduledJob(now: Date = new Date()) {
  const reminders = await runReminderJob(now);
  const waitlist = await runWaitlistJob(now);
  const outbox = await purgeOutbox(await getDb(), now);
  const delivery = await runDelivery({ now });
  if (delivery.sent || delivery.retrying || delivery.failed) {
    console.info(`emails: ${delivery.sent} sent, ${delivery.retrying} to retry, ${delivery.failed} failed`);
  }
  return { ...reminders, waitlist, outbox, delivery };
}

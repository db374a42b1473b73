/**
 * The every-minute job, as Netlify's scheduled function
 * (netlify/functions/send-reminders.ts) and the local server run it:
 * reminders queued and day-ended contacts purged
 * (appointment-contact/job.server.ts), the waitlist's offers and purge
 * (waitlist/sweep.server.ts), the patient requests' notice to the
 * practice and the deletion of their details (requests/job.server.ts,
 * docs/decisions/036-patient-requests.md), then the email outbox: whatever is due is
 * sent, old bodies and rows are deleted (email/delivery.server.ts,
 * docs/decisions/035). Counts only, never anything of a patient.
 *
 * Operations (docs/decisions/045-operations.md): each step runs even when
 * one before it threw (a failing waitlist must not hold back the emails);
 * every run ends with its heartbeat (outcome and the failed steps' names),
 * the operations alerts' check, one JSON log line with the counts, and,
 * with SENTRY_DSN set, a report of each failed step. A run with a failed
 * step still throws its first error at the end, so the function's answer
 * says it failed.
 */
import { randomUUID } from 'node:crypto';
import { runReminderJob } from './appointment-contact/job.server';
import { getDb } from './database.server';
import { purgeOutbox, runDelivery } from './email/delivery.server';
import { checkAlertsFromJob } from './operations/alerts.server';
import { reportError } from './operations/error-reports.server';
import { writeHeartbeat } from './operations/heartbeat.server';
import { countsOf, writeLogLine } from './operations/request-log.server';
import { runRequestJob } from './requests/job.server';
import { runWaitlistJob } from './waitlist/sweep.server';

type Reminders = Awaited<ReturnType<typeof runReminderJob>>;

export async function runScheduledJob(now: Date = new Date()) {
  const started = performance.now();
  const requestId = randomUUID();
  const failures: Array<{ step: string; error: unknown }> = [];
  async function step<T>(name: string, work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      failures.push({ step: name, error });
      console.warn(`job step ${name} failed: ${(error as Error)?.name ?? 'unknown'}`);
      return null;
    }
  }

  const reminders = (await step('reminders', () => runReminderJob(now))) ?? ({} as Partial<Reminders>);
  const waitlist = await step('waitlist', () => runWaitlistJob(now));
  const requests = await step('requests', () => runRequestJob(now));
  const outbox = await step('outbox-purge', async () => purgeOutbox(await getDb(), now));
  const delivery = await step('delivery', () => runDelivery({ now }));
  if (delivery && (delivery.sent || delivery.retrying || delivery.failed)) {
    console.info(`emails: ${delivery.sent} sent, ${delivery.retrying} to retry, ${delivery.failed} failed`);
  }
  const result = { ...reminders, waitlist, requests, outbox, delivery };

  const failedSteps = failures.map((f) => f.step);
  await step('heartbeat', async () =>
    writeHeartbeat(await getDb(), { ranAt: now, outcome: failedSteps.length ? 'failed' : 'ok', failedSteps, durationMs: performance.now() - started }),
  );
  const alerts = await step('alerts', async () => checkAlertsFromJob(await getDb(), now));
  writeLogLine({
    kind: 'job',
    outcome: failures.length ? 'failed' : 'ok',
    failed_steps: failures.map((f) => f.step),
    ms: Math.round(performance.now() - started),
    request_id: requestId,
    counts: { ...countsOf(result), alerts: alerts?.length ?? 0 },
  });
  await Promise.all(failures.map((f) => reportError(f.error, { kind: 'job', where: f.step, requestId })));
  if (failures.length) throw failures[0]!.error;
  return result;
}

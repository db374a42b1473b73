/**
 * The scheduled job (every minute): sends the due appointment reminders and
 * deletes the contacts of appointments whose Berlin day has ended
 * (src/server/appointment-contact/job.server.ts); offers freed times to the
 * waitlist within a minute and purges its passed entries
 * (src/server/waitlist/sweep.server.ts, docs/decisions/032-waitlist.md);
 * tells the practice of new patient requests and deletes the details of
 * requests past their time (src/server/requests/job.server.ts,
 * docs/decisions/036-patient-requests.md). It answers counts, never
 * anything of a patient.
 */
import { runReminderJob } from '../appointment-contact/job.server';
import { runDelivery } from '../email/delivery.server';
import { errorResponse } from '../http.server';
import { runRequestJob } from '../requests/job.server';
import { runWaitlistJob } from '../waitlist/sweep.server';

export async function scheduledJobs(): Promise<Response> {
  try {
    const reminders = await runReminderJob();
    const waitlist = await runWaitlistJob();
    const requests = await runRequestJob();
    await runDelivery({ ids: requests.emailIds });
    return Response.json({ ...reminders, waitlist, requests: { noticed: requests.noticed, purged: requests.purged } });
  } catch (error) {
    return errorResponse(error);
  }
}

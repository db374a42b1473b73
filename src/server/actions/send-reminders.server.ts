/**
 * The scheduled job (every minute): sends the due appointment reminders and
 * deletes the contacts of appointments whose Berlin day has ended
 * (src/server/appointment-contact/job.server.ts); offers freed times to the
 * waitlist within a minute and purges its passed entries
 * (src/server/waitlist/sweep.server.ts, docs/decisions/032-waitlist.md).
 * It answers counts, never anything of a patient.
 */
import { runReminderJob } from '../appointment-contact/job.server';
import { errorResponse } from '../http.server';
import { runWaitlistJob } from '../waitlist/sweep.server';

export async function scheduledJobs(): Promise<Response> {
  try {
    const reminders = await runReminderJob();
    const waitlist = await runWaitlistJob();
    return Response.json({ ...reminders, waitlist });
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * The scheduled job (every minute, src/server/scheduled-job.server.ts):
 * queues the due appointment reminders and deletes the contacts of
 * appointments whose Berlin day has ended; offers freed times to the
 * waitlist and purges its passed entries (docs/decisions/032-waitlist.md);
 * sends whatever the email outbox holds that is due and deletes old bodies
 * (docs/decisions/035-email-outbox.md). It answers counts, never anything
 * of a patient.
 */
import { errorResponse } from '../http.server';
import { runScheduledJob } from '../scheduled-job.server';

export async function scheduledJobs(): Promise<Response> {
  try {
    return Response.json(await runScheduledJob());
  } catch (error) {
    return errorResponse(error);
  }
}

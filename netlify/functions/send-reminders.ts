/**
 * Scheduled function (Netlify, every minute, UTC cron): sends the due
 * appointment reminders and deletes the contacts of appointments whose
 * Berlin day has ended (src/server/appointment-contact/job.server.ts);
 * offers freed times to the waitlist within a minute and purges its passed
 * entries (src/server/waitlist/sweep.server.ts, docs/decisions/032-waitlist.md).
 * It has no path: Netlify invokes it on schedule only. It answers counts,
 * never anything of a patient.
 */
import { errorResponse } from '../../src/server/http.server';
import { runReminderJob } from '../../src/server/appointment-contact/job.server';
import { runWaitlistJob } from '../../src/server/waitlist/sweep.server';

export default async (): Promise<Response> => {
  try {
    const reminders = await runReminderJob();
    const waitlist = await runWaitlistJob();
    return Response.json({ ...reminders, waitlist });
  } catch (error) {
    return errorResponse(error);
  }
};

export const config = { schedule: '* * * * *' };

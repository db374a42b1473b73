/**
 * Scheduled function (Netlify, every 15 minutes, UTC cron): sends the due
 * appointment reminders and deletes the contacts of appointments whose
 * Berlin day has ended (src/server/appointment-contact/job.server.ts).
 * It has no path: Netlify invokes it on schedule only. It answers counts,
 * never anything of a patient.
 */
import { errorResponse } from '../../src/server/http.server';
import { runReminderJob } from '../../src/server/appointment-contact/job.server';

export default async (): Promise<Response> => {
  try {
    return Response.json(await runReminderJob());
  } catch (error) {
    return errorResponse(error);
  }
};

export const config = { schedule: '*/15 * * * *' };

/** Scheduled function (Netlify, every minute, UTC cron); it has no path: Netlify invokes it on schedule only. */
import { scheduledJobs } from '../../src/server/actions/send-reminders.server';

export default scheduledJobs;

export const config = { schedule: '* * * * *' };

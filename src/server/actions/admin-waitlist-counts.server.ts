/** /api/admin/waitlist/counts: counts only, no names, nothing opened. */
import { waitlistCountsQuerySchema } from '../../lib/waitlist-schema';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { waitlistCounts } from '../waitlist/staff.server';

export const countWaiting = adminAction({
  query: waitlistCountsQuerySchema,
  run: async ({ db, query: { from, to } }) => json(await waitlistCounts(db, from, to)),
});

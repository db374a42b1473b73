import { getDb } from '../../db/client';
import { waitlistCountsQuerySchema } from '../../src/lib/waitlist-schema';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, queryOf, route } from '../../src/server/http.server';
import { waitlistCounts } from '../../src/server/waitlist/staff.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    // Counts only: no names, nothing opened.
    const { from, to } = parseInput(waitlistCountsQuerySchema, queryOf(req));
    return json(await waitlistCounts(db, from, to));
  },
});

export const config = { path: '/api/admin/waitlist/counts' };

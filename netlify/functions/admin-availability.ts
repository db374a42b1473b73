import { getDb } from '../../db/client';
import { staffAvailabilityQuerySchema } from '../../src/lib/admin-schemas';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { getAvailability } from '../../src/server/bookings/availability.server';
import { json, parseInput, queryOf, route } from '../../src/server/http.server';

export default route({
  // The staff slot picker's dates and free times: staff rules (up to 365 days ahead, any type), docs/decisions/021.
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const query = parseInput(staffAvailabilityQuerySchema, queryOf(req));
    return json(await getAvailability(db, query, new Date(), 'staff'));
  },
});

export const config = { path: '/api/admin/availability' };

import { getDb } from '../../db/client';
import { listBookedSlots } from '../../src/server/admin/booked-slots.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listBookedSlots(db));
  },
});

export const config = { path: '/api/admin/booked-slots' };

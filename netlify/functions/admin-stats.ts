import { getDb } from '../../db/client';
import { adminStats } from '../../src/server/admin-stats.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await adminStats(db));
  },
});

export const config = { path: '/api/admin/stats' };

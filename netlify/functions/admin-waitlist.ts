import { getDb } from '../../db/client';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, route } from '../../src/server/http.server';
import { staffWaitlist } from '../../src/server/waitlist/staff.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    // Names: staff only, never cached (json() answers no-store), one audit row per answer.
    return json(await staffWaitlist(db, session, await dataKeyRingIfAny()));
  },
});

export const config = { path: '/api/admin/waitlist' };

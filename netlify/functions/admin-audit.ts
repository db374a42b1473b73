import { getDb } from '../../db/client';
import { auditQuerySchema } from '../../src/lib/audit';
import { listAudit } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, queryOf, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listAudit(db, parseInput(auditQuerySchema, queryOf(req))));
  },
});

export const config = { path: '/api/admin/audit' };

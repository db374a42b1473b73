import { getDb } from '../../db/client';
import { blockedDateSchema } from '../../src/lib/admin-schemas';
import { createBlockedDate, listBlockedDates } from '../../src/server/admin/blocked-dates.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listBlockedDates(db));
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(blockedDateSchema, await readJson(req));
    return json(await audited(db, session, { action: 'create', entity: 'blocked-date', label: auditLabel.block }, (tx) => createBlockedDate(tx, input)), { status: 201 });
  },
});

export const config = { path: '/api/admin/blocked-dates' };

import { getDb } from '../../db/client';
import { timeWindowSchema } from '../../src/lib/admin-schemas';
import { createTimeWindow, listTimeWindows } from '../../src/server/admin/time-windows.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listTimeWindows(db));
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(timeWindowSchema, await readJson(req));
    return json(await audited(db, session, { action: 'create', entity: 'time-window', label: auditLabel.window }, (tx) => createTimeWindow(tx, input)), { status: 201 });
  },
});

export const config = { path: '/api/admin/time-slots' };

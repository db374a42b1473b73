import { getDb } from '../../db/client';
import { blockedDateSchema } from '../../src/lib/admin-schemas';
import { deleteBlockedDate, updateBlockedDate } from '../../src/server/admin/blocked-dates.server';
import { itemId } from '../../src/server/admin/shared.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'blocked date');
    const input = parseInput(blockedDateSchema, await readJson(req));
    return json(await audited(db, session, { action: 'update', entity: 'blocked-date', entityId: id, label: auditLabel.block }, (tx) => updateBlockedDate(tx, id, input)));
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'blocked date');
    await audited(db, session, { action: 'delete', entity: 'blocked-date', entityId: id, label: auditLabel.block }, (tx) => deleteBlockedDate(tx, id));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/blocked-dates/:id' };

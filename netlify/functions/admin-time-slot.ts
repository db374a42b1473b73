import { getDb } from '../../db/client';
import { timeWindowSchema } from '../../src/lib/admin-schemas';
import { itemId } from '../../src/server/admin/shared.server';
import { deleteTimeWindow, updateTimeWindow } from '../../src/server/admin/time-windows.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'time window');
    const input = parseInput(timeWindowSchema, await readJson(req));
    const saved = await audited(db, session, { action: 'update', entity: 'time-window', entityId: id, label: auditLabel.window }, (tx) => updateTimeWindow(tx, id, input));
    offerAfterResponse(ctx, saved.appointment_type_id);
    return json(saved);
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'time window');
    await audited(db, session, { action: 'delete', entity: 'time-window', entityId: id, label: auditLabel.window }, (tx) => deleteTimeWindow(tx, id));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/time-slots/:id' };

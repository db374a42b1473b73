import { getDb } from '../../db/client';
import { newTimeWindowsSchema } from '../../src/lib/admin-schemas';
import { createTimeWindows, listTimeWindows } from '../../src/server/admin/time-windows.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listTimeWindows(db));
  },
  POST: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(newTimeWindowsSchema, await readJson(req));
    const rows = await audited(db, session, { action: 'create', entity: 'time-window', label: auditLabel.window }, (tx) => createTimeWindows(tx, input));
    // A new window offers new times: the waitlist is asked (docs/decisions/032).
    offerAfterResponse(ctx, input.appointment_type_id);
    // days_of_week (several weekdays in one step) answers every row; day_of_week its one row, as before.
    return json(input.several ? rows : rows[0], { status: 201 });
  },
});

export const config = { path: '/api/admin/time-slots' };

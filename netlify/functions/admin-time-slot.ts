import { getDb } from '../../db/client';
import { timeWindowSchema } from '../../src/lib/admin-schemas';
import { itemId } from '../../src/server/admin/shared.server';
import { deleteTimeWindow, updateTimeWindow } from '../../src/server/admin/time-windows.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const id = itemId(ctx, 'time window');
    const input = parseInput(timeWindowSchema, await readJson(req));
    return json(await updateTimeWindow(db, id, input));
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    await deleteTimeWindow(db, itemId(ctx, 'time window'));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/time-slots/:id' };

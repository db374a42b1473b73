import { getDb } from '../../db/client';
import { blockedDateSchema } from '../../src/lib/admin-schemas';
import { deleteBlockedDate, updateBlockedDate } from '../../src/server/admin/blocked-dates.server';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const id = itemId(ctx, 'blocked date');
    const input = parseInput(blockedDateSchema, await readJson(req));
    return json(await updateBlockedDate(db, id, input));
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    await deleteBlockedDate(db, itemId(ctx, 'blocked date'));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/blocked-dates/:id' };

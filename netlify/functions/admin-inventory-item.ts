import { getDb } from '../../db/client';
import { inventoryItemSchema, inventoryOrderedSchema } from '../../src/lib/admin-schemas';
import { deleteInventoryItem, setInventoryOrdered, updateInventoryItem } from '../../src/server/admin/inventory.server';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const id = itemId(ctx, 'inventory item');
    const input = parseInput(inventoryItemSchema, await readJson(req));
    return json(await updateInventoryItem(db, id, input));
  },
  PATCH: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const id = itemId(ctx, 'inventory item');
    const input = parseInput(inventoryOrderedSchema, await readJson(req));
    return json(await setInventoryOrdered(db, id, input.is_ordered));
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    await deleteInventoryItem(db, itemId(ctx, 'inventory item'));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/inventory/:id' };

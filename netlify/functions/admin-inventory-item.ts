import { getDb } from '../../db/client';
import { inventoryItemSchema, inventoryOrderedSchema } from '../../src/lib/admin-schemas';
import { deleteInventoryItem, setInventoryOrdered, updateInventoryItem } from '../../src/server/admin/inventory.server';
import { itemId } from '../../src/server/admin/shared.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'inventory item');
    const input = parseInput(inventoryItemSchema, await readJson(req));
    return json(await audited(db, session, { action: 'update', entity: 'inventory-item', entityId: id, label: auditLabel.item }, (tx) => updateInventoryItem(tx, id, input)));
  },
  PATCH: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'inventory item');
    const input = parseInput(inventoryOrderedSchema, await readJson(req));
    return json(await audited(db, session, { action: 'update', entity: 'inventory-item', entityId: id, label: auditLabel.item }, (tx) => setInventoryOrdered(tx, id, input.is_ordered)));
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'inventory item');
    await audited(db, session, { action: 'delete', entity: 'inventory-item', entityId: id, label: auditLabel.item }, (tx) => deleteInventoryItem(tx, id));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/inventory/:id' };

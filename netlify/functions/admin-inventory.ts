import { getDb } from '../../db/client';
import { inventoryItemSchema } from '../../src/lib/admin-schemas';
import { createInventoryItem, listInventory } from '../../src/server/admin/inventory.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listInventory(db));
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(inventoryItemSchema, await readJson(req));
    return json(await audited(db, session, { action: 'create', entity: 'inventory-item', label: auditLabel.item }, (tx) => createInventoryItem(tx, input)), { status: 201 });
  },
});

export const config = { path: '/api/admin/inventory' };

/** /api/admin/inventory: the consumables, listed and added. */
import { inventoryItemSchema } from '../../lib/admin-schemas';
import { createInventoryItem, listInventory } from '../admin/inventory.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const listItems = adminAction({ run: async ({ db }) => json(await listInventory(db)) });

export const createItem = adminAction({
  body: inventoryItemSchema,
  run: async ({ db, session, body }) =>
    json(await audited(db, session, { action: 'create', entity: 'inventory-item', label: auditLabel.item }, (tx) => createInventoryItem(tx, body)), { status: 201 }),
});

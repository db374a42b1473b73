/** /api/admin/inventory/:id: one consumable changed, marked ordered or deleted. */
import { inventoryItemSchema, inventoryOrderedSchema } from '../../lib/admin-schemas';
import { deleteInventoryItem, setInventoryOrdered, updateInventoryItem } from '../admin/inventory.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

const what = 'inventory item';

export const updateItem = adminAction({
  item: what,
  body: inventoryItemSchema,
  run: async ({ db, session, params: { id }, body }) =>
    json(await audited(db, session, { action: 'update', entity: 'inventory-item', entityId: id, label: auditLabel.item }, (tx) => updateInventoryItem(tx, id, body))),
});

export const markOrdered = adminAction({
  item: what,
  body: inventoryOrderedSchema,
  run: async ({ db, session, params: { id }, body }) =>
    json(await audited(db, session, { action: 'update', entity: 'inventory-item', entityId: id, label: auditLabel.item }, (tx) => setInventoryOrdered(tx, id, body.is_ordered))),
});

export const deleteItem = adminAction({
  item: what,
  run: async ({ db, session, params: { id } }) => {
    await audited(db, session, { action: 'delete', entity: 'inventory-item', entityId: id, label: auditLabel.item }, (tx) => deleteInventoryItem(tx, id));
    return new Response(null, { status: 204 });
  },
});

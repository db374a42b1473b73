import { adminRoute } from '../../src/server/http/session-route.server';
import { deleteItem, markOrdered, updateItem } from '../../src/server/actions/admin-inventory-item.server';

export default adminRoute({ PUT: updateItem, PATCH: markOrdered, DELETE: deleteItem });

export const config = { path: '/api/admin/inventory/:id' };

import { actionsOf, adminRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/admin-inventory-item.server'));

export default adminRoute({ PUT: load('updateItem'), PATCH: load('markOrdered'), DELETE: load('deleteItem') });

export const config = { path: '/api/admin/inventory/:id' };

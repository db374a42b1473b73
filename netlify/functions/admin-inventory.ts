import { adminRoute } from '../../src/server/http/session-route.server';
import { createItem, listItems } from '../../src/server/actions/admin-inventory.server';

export default adminRoute({ GET: listItems, POST: createItem });

export const config = { path: '/api/admin/inventory' };

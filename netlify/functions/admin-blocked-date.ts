import { adminRoute } from '../../src/server/http/session-route.server';
import { liftBlock, updateBlock } from '../../src/server/actions/admin-blocked-date.server';

export default adminRoute({ PUT: updateBlock, DELETE: liftBlock });

export const config = { path: '/api/admin/blocked-dates/:id' };

import { adminRoute } from '../../src/server/http/session-route.server';
import { createBlock, listBlocks } from '../../src/server/actions/admin-blocked-dates.server';

export default adminRoute({ GET: listBlocks, POST: createBlock });

export const config = { path: '/api/admin/blocked-dates' };

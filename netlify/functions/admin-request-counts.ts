import { adminRoute } from '../../src/server/http/session-route.server';
import { countRequests } from '../../src/server/actions/admin-request-counts.server';

export default adminRoute({ GET: countRequests });

export const config = { path: '/api/admin/request-counts' };

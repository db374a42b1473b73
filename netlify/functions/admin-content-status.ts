import { adminRoute } from '../../src/server/http/session-route.server';
import { publishState } from '../../src/server/actions/admin-content-status.server';

export default adminRoute({ GET: publishState });

export const config = { path: '/api/admin/content/status' };

import { adminRoute } from '../../src/server/http/session-route.server';
import { showSystemStatus } from '../../src/server/actions/admin-system.server';

export default adminRoute({ GET: showSystemStatus });

export const config = { path: '/api/admin/system' };

import { adminRoute } from '../../src/server/http/session-route.server';
import { dashboardStats } from '../../src/server/actions/admin-stats.server';

export default adminRoute({ GET: dashboardStats });

export const config = { path: '/api/admin/stats' };

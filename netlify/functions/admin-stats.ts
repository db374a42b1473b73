import { adminRoute } from '../../src/server/http/route.server';
import { dashboardStats } from '../../src/server/actions/admin-stats.server';

export default adminRoute({ GET: dashboardStats });

export const config = { path: '/api/admin/stats' };

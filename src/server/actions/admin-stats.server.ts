/** /api/admin/stats: the dashboard's figures. */
import { adminStats } from '../admin-stats.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const dashboardStats = adminAction({ run: async ({ db }) => json(await adminStats(db)) });

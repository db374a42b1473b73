import { adminRoute } from '../../src/server/http/session-route.server';
import { countWaiting } from '../../src/server/actions/admin-waitlist-counts.server';

export default adminRoute({ GET: countWaiting });

export const config = { path: '/api/admin/waitlist/counts' };

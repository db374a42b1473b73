import { adminRoute } from '../../src/server/http/session-route.server';
import { listWaiting } from '../../src/server/actions/admin-waitlist.server';

export default adminRoute({ GET: listWaiting });

export const config = { path: '/api/admin/waitlist' };

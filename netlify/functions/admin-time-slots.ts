import { adminRoute } from '../../src/server/http/session-route.server';
import { createWindows, listWindows } from '../../src/server/actions/admin-time-slots.server';

export default adminRoute({ GET: listWindows, POST: createWindows });

export const config = { path: '/api/admin/time-slots' };

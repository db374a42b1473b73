import { adminRoute } from '../../src/server/http/session-route.server';
import { colleagueSessions, endAllColleagueSessions } from '../../src/server/actions/admin-user-sessions.server';

export default adminRoute({ GET: colleagueSessions, DELETE: endAllColleagueSessions });

export const config = { path: '/api/admin/users/:id/sessions' };

import { adminRoute } from '../../src/server/http/session-route.server';
import { endColleagueSession } from '../../src/server/actions/admin-user-session.server';

export default adminRoute({ DELETE: endColleagueSession });

export const config = { path: '/api/admin/users/:id/sessions/:session' };

import { sessionRoute } from '../../src/server/http/session-route.server';
import { ownSessions } from '../../src/server/actions/auth-sessions.server';

export default sessionRoute({ GET: ownSessions });

export const config = { path: '/api/auth/sessions' };

import { sessionRoute } from '../../src/server/http/session-route.server';
import { currentSession } from '../../src/server/actions/auth-session.server';

export default sessionRoute({ GET: currentSession });

export const config = { path: '/api/auth/session' };

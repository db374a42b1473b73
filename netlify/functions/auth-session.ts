import { publicRoute } from '../../src/server/http/route.server';
import { currentSession } from '../../src/server/actions/auth-session.server';

export default publicRoute({ GET: currentSession });

export const config = { path: '/api/auth/session' };

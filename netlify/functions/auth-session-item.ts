import { sessionRoute } from '../../src/server/http/session-route.server';
import { endOthers, endSession, nameSession } from '../../src/server/actions/auth-session-item.server';

export default sessionRoute({ DELETE: endSession, POST: endOthers, PUT: nameSession });

export const config = { path: '/api/auth/sessions/:id' };

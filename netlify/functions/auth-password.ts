import { sessionRoute } from '../../src/server/http/session-route.server';
import { changeOwnPassword } from '../../src/server/actions/auth-password.server';

export default sessionRoute({ POST: changeOwnPassword });

export const config = { path: '/api/auth/password' };

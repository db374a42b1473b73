import { sessionRoute } from '../../src/server/http/session-route.server';
import { ownSecondFactor, removeSecondFactor } from '../../src/server/actions/auth-totp.server';

export default sessionRoute({ GET: ownSecondFactor, DELETE: removeSecondFactor });

export const config = { path: '/api/auth/totp' };

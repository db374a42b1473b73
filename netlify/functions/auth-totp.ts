import { publicRoute } from '../../src/server/http/route.server';
import { ownSecondFactor, removeSecondFactor } from '../../src/server/actions/auth-totp.server';

export default publicRoute({ GET: ownSecondFactor, DELETE: removeSecondFactor });

export const config = { path: '/api/auth/totp' };

import { sessionRoute } from '../../src/server/http/session-route.server';
import { startSecondFactor } from '../../src/server/actions/auth-totp-setup.server';

export default sessionRoute({ POST: startSecondFactor });

export const config = { path: '/api/auth/totp/setup' };

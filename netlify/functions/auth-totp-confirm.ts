import { sessionRoute } from '../../src/server/http/session-route.server';
import { confirmSecondFactor } from '../../src/server/actions/auth-totp-confirm.server';

export default sessionRoute({ POST: confirmSecondFactor });

export const config = { path: '/api/auth/totp/confirm' };

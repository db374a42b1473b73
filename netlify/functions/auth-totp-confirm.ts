import { publicRoute } from '../../src/server/http/route.server';
import { confirmSecondFactor } from '../../src/server/actions/auth-totp-confirm.server';

export default publicRoute({ POST: confirmSecondFactor });

export const config = { path: '/api/auth/totp/confirm' };

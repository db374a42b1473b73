import { publicRoute } from '../../src/server/http/route.server';
import { startSecondFactor } from '../../src/server/actions/auth-totp-setup.server';

export default publicRoute({ POST: startSecondFactor });

export const config = { path: '/api/auth/totp/setup' };

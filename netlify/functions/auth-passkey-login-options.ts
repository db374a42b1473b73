import { publicRoute } from '../../src/server/http/route.server';
import { passkeyLoginOptions } from '../../src/server/actions/auth-passkey-login-options.server';

export default publicRoute({ POST: passkeyLoginOptions });

export const config = { path: '/api/auth/passkey/login/options' };

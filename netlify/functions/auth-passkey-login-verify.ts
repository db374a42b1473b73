import { publicRoute } from '../../src/server/http/route.server';
import { passkeyLoginVerify } from '../../src/server/actions/auth-passkey-login-verify.server';

export default publicRoute({ POST: passkeyLoginVerify });

export const config = { path: '/api/auth/passkey/login/verify' };

import { sessionRoute } from '../../src/server/http/session-route.server';
import { passkeyRegistrationVerify } from '../../src/server/actions/auth-passkey-register-verify.server';

export default sessionRoute({ POST: passkeyRegistrationVerify });

export const config = { path: '/api/auth/passkey/register/verify' };

import { sessionRoute } from '../../src/server/http/session-route.server';
import { passkeyRegistrationOptions } from '../../src/server/actions/auth-passkey-register-options.server';

export default sessionRoute({ POST: passkeyRegistrationOptions });

export const config = { path: '/api/auth/passkey/register/options' };

import { actionsOf, sessionRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/auth-passkey-register-verify.server'));

export default sessionRoute({ POST: load('passkeyRegistrationVerify') });

export const config = { path: '/api/auth/passkey/register/verify' };

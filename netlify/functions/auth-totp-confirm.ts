import { actionsOf, sessionRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/auth-totp-confirm.server'));

export default sessionRoute({ POST: load('confirmSecondFactor') });

export const config = { path: '/api/auth/totp/confirm' };

import { sessionRoute } from '../../src/server/http/session-route.server';
import { ownPasskeys } from '../../src/server/actions/auth-passkeys.server';

export default sessionRoute({ GET: ownPasskeys });

export const config = { path: '/api/auth/passkeys' };

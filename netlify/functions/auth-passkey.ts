import { sessionRoute } from '../../src/server/http/session-route.server';
import { removeOwnPasskey } from '../../src/server/actions/auth-passkey.server';

export default sessionRoute({ DELETE: removeOwnPasskey });

export const config = { path: '/api/auth/passkeys/:id' };

import { publicRoute } from '../../src/server/http/route.server';
import { setNewPassword, showLinkAccount } from '../../src/server/actions/auth-reset.server';

export default publicRoute({ GET: showLinkAccount, POST: setNewPassword });

export const config = { path: '/api/auth/reset' };

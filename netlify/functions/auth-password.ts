import { publicRoute } from '../../src/server/http/route.server';
import { changeOwnPassword } from '../../src/server/actions/auth-password.server';

export default publicRoute({ POST: changeOwnPassword });

export const config = { path: '/api/auth/password' };

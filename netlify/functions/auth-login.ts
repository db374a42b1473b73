import { publicRoute } from '../../src/server/http/route.server';
import { signIn } from '../../src/server/actions/auth-login.server';

export default publicRoute({ POST: signIn });

export const config = { path: '/api/auth/login' };

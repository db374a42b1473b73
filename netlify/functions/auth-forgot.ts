import { publicRoute } from '../../src/server/http/route.server';
import { forgotPassword } from '../../src/server/actions/auth-forgot.server';

export default publicRoute({ POST: forgotPassword });

export const config = { path: '/api/auth/forgot' };

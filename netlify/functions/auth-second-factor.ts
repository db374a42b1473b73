import { publicRoute } from '../../src/server/http/route.server';
import { completeWithCode } from '../../src/server/actions/auth-second-factor.server';

export default publicRoute({ POST: completeWithCode });

export const config = { path: '/api/auth/second-factor' };

import { publicRoute } from '../../src/server/http/route.server';
import { refreshSession } from '../../src/server/actions/auth-refresh.server';

export default publicRoute({ POST: refreshSession });

export const config = { path: '/api/auth/refresh' };

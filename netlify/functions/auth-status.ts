import { publicRoute } from '../../src/server/http/route.server';
import { setupStatus } from '../../src/server/actions/auth-status.server';

export default publicRoute({ GET: setupStatus });

export const config = { path: '/api/auth/status' };

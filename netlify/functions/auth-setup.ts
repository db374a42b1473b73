import { publicRoute } from '../../src/server/http/route.server';
import { setupAdmin } from '../../src/server/actions/auth-setup.server';

export default publicRoute({ POST: setupAdmin });

export const config = { path: '/api/auth/setup' };

import { publicRoute } from '../../src/server/http/route.server';
import { signOut } from '../../src/server/actions/auth-logout.server';

export default publicRoute({ POST: signOut });

export const config = { path: '/api/auth/logout' };

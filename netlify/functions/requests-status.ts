import { publicRoute } from '../../src/server/http/route.server';
import { showStatus } from '../../src/server/actions/requests-status.server';

export default publicRoute({ GET: showStatus });

export const config = { path: '/api/requests/status' };

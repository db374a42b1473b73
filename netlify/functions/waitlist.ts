import { publicRoute } from '../../src/server/http/route.server';
import { join } from '../../src/server/actions/waitlist.server';

export default publicRoute({ POST: join });

export const config = { path: '/api/waitlist' };

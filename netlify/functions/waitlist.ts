import { publicRoute } from '../../src/server/http/route.server';
import { context, join } from '../../src/server/actions/waitlist.server';

export default publicRoute({ GET: context, POST: join });

export const config = { path: '/api/waitlist' };

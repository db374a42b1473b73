import { publicRoute } from '../../src/server/http/route.server';
import { leave } from '../../src/server/actions/waitlist-leave.server';

export default publicRoute({ POST: leave });

export const config = { path: '/api/waitlist/leave' };

import { publicRoute } from '../../src/server/http/route.server';
import { follow } from '../../src/server/actions/short-link.server';

export default publicRoute({ GET: follow });

export const config = { path: '/k/:code' };

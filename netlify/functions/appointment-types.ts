import { publicRoute } from '../../src/server/http/route.server';
import { bookableTypes } from '../../src/server/actions/appointment-types.server';

export default publicRoute({ GET: bookableTypes });

export const config = { path: '/api/appointment-types' };

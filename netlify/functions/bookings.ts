import { publicRoute } from '../../src/server/http/route.server';
import { book } from '../../src/server/actions/bookings.server';

export default publicRoute({ POST: book });

export const config = { path: '/api/bookings' };

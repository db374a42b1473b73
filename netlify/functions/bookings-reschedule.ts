import { publicRoute } from '../../src/server/http/route.server';
import { reschedule } from '../../src/server/actions/bookings-reschedule.server';

export default publicRoute({ POST: reschedule });

export const config = { path: '/api/bookings/reschedule' };

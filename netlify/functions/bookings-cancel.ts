import { publicRoute } from '../../src/server/http/route.server';
import { cancel, showAppointment } from '../../src/server/actions/bookings-cancel.server';

export default publicRoute({ GET: showAppointment, POST: cancel });

export const config = { path: '/api/bookings/cancel' };

import { adminRoute } from '../../src/server/http/session-route.server';
import { cancelBooked } from '../../src/server/actions/admin-booked-slot-cancel.server';

export default adminRoute({ POST: cancelBooked });

export const config = { path: '/api/admin/booked-slots/:id/cancel' };

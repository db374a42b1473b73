import { adminRoute } from '../../src/server/http/session-route.server';
import { bookByPhone, listBooked } from '../../src/server/actions/admin-booked-slots.server';

export default adminRoute({ GET: listBooked, POST: bookByPhone });

export const config = { path: '/api/admin/booked-slots' };

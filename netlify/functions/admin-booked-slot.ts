import { adminRoute } from '../../src/server/http/session-route.server';
import { deleteBooked } from '../../src/server/actions/admin-booked-slot.server';

export default adminRoute({ DELETE: deleteBooked });

export const config = { path: '/api/admin/booked-slots/:id' };

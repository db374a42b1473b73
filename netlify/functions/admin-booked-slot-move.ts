import { adminRoute } from '../../src/server/http/session-route.server';
import { moveBooked } from '../../src/server/actions/admin-booked-slot-move.server';

export default adminRoute({ POST: moveBooked });

export const config = { path: '/api/admin/booked-slots/:id/move' };

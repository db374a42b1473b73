import { adminRoute } from '../../src/server/http/session-route.server';
import { markInformed } from '../../src/server/actions/admin-booked-slot-informed.server';

export default adminRoute({ PUT: markInformed });

export const config = { path: '/api/admin/booked-slots/:id/informed' };

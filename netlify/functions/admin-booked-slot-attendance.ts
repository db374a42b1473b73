import { adminRoute } from '../../src/server/http/session-route.server';
import { markAttendance } from '../../src/server/actions/admin-booked-slot-attendance.server';

export default adminRoute({ PUT: markAttendance });

export const config = { path: '/api/admin/booked-slots/:id/attendance' };

import { adminRoute } from '../../src/server/http/session-route.server';
import { staffAvailability } from '../../src/server/actions/admin-availability.server';

export default adminRoute({ GET: staffAvailability });

export const config = { path: '/api/admin/availability' };

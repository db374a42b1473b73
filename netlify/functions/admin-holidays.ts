import { adminRoute } from '../../src/server/http/session-route.server';
import { listHolidays } from '../../src/server/actions/admin-holidays.server';

export default adminRoute({ GET: listHolidays });

export const config = { path: '/api/admin/holidays' };

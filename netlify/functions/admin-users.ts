import { adminRoute } from '../../src/server/http/session-route.server';
import { createStaff, listStaff } from '../../src/server/actions/admin-users.server';

export default adminRoute({ GET: listStaff, POST: createStaff });

export const config = { path: '/api/admin/users' };

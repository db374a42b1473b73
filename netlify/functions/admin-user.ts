import { adminRoute } from '../../src/server/http/session-route.server';
import { deleteStaff } from '../../src/server/actions/admin-user.server';

export default adminRoute({ DELETE: deleteStaff });

export const config = { path: '/api/admin/users/:id' };

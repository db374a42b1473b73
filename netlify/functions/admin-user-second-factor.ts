import { adminRoute } from '../../src/server/http/session-route.server';
import { resetSecondFactor } from '../../src/server/actions/admin-user-second-factor.server';

export default adminRoute({ DELETE: resetSecondFactor });

export const config = { path: '/api/admin/users/:id/second-factor' };

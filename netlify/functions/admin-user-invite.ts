import { adminRoute } from '../../src/server/http/session-route.server';
import { reinvite } from '../../src/server/actions/admin-user-invite.server';

export default adminRoute({ POST: reinvite });

export const config = { path: '/api/admin/users/:id/invite' };

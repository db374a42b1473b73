import { adminRoute } from '../../src/server/http/session-route.server';
import { deleteWindow, updateWindow } from '../../src/server/actions/admin-time-slot.server';

export default adminRoute({ PUT: updateWindow, DELETE: deleteWindow });

export const config = { path: '/api/admin/time-slots/:id' };

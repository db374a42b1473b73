import { adminRoute } from '../../src/server/http/session-route.server';
import { deleteType, updateType } from '../../src/server/actions/admin-appointment-type.server';

export default adminRoute({ PUT: updateType, DELETE: deleteType });

export const config = { path: '/api/admin/appointment-types/:id' };

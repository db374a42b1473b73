import { adminRoute } from '../../src/server/http/session-route.server';
import { createType, listTypes } from '../../src/server/actions/admin-appointment-types.server';

export default adminRoute({ GET: listTypes, POST: createType });

export const config = { path: '/api/admin/appointment-types' };

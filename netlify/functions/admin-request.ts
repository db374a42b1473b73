import { adminRoute } from '../../src/server/http/session-route.server';
import { changePatientRequest } from '../../src/server/actions/admin-request.server';

export default adminRoute({ PUT: changePatientRequest });

export const config = { path: '/api/admin/requests/:id' };

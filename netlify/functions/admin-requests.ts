import { adminRoute } from '../../src/server/http/session-route.server';
import { listPatientRequests } from '../../src/server/actions/admin-requests.server';

export default adminRoute({ GET: listPatientRequests });

export const config = { path: '/api/admin/requests' };

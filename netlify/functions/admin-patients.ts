import { adminRoute } from '../../src/server/http/session-route.server';
import { findPatients } from '../../src/server/actions/admin-patients.server';

export default adminRoute({ GET: findPatients });

export const config = { path: '/api/admin/patients' };

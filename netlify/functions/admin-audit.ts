import { adminRoute } from '../../src/server/http/session-route.server';
import { listAuditTrail } from '../../src/server/actions/admin-audit.server';

export default adminRoute({ GET: listAuditTrail });

export const config = { path: '/api/admin/audit' };

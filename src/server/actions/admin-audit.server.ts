/** /api/admin/audit: the audit trail. */
import { auditQuerySchema } from '../../lib/audit';
import { listAudit } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const listAuditTrail = adminAction({ query: auditQuerySchema, run: async ({ db, query }) => json(await listAudit(db, query)) });

/**
 * /api/admin/system: "Systemstatus" (docs/decisions/045-operations.md),
 * admins only, never cached, and every look at it is in the audit trail.
 * Counts and times only (operations/system-status.server.ts).
 */
import { recordAudit } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { systemStatus } from '../operations/system-status.server';

export const showSystemStatus = adminAction({
  run: async ({ db, session }) => {
    const status = await systemStatus(db);
    await recordAudit(db, session, { action: 'view', entity: 'system', entityId: 'system', label: 'Systemstatus' });
    return json(status);
  },
});

/**
 * /api/admin/requests?status=&kind=: reception's queue of patient requests
 * (docs/decisions/036-patient-requests.md), oldest first, each with its
 * details opened for this answer only (no-store); one audit row per answer
 * with the count, never a value.
 */
import { adminRequestsQuerySchema } from '../../lib/request-schema';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { auditRequestsView, listRequests } from '../requests/staff.server';

export const listPatientRequests = adminAction({
  query: adminRequestsQuerySchema,
  run: async ({ db, session, query }) => {
    const rows = await listRequests(db, query, await dataKeyRingIfAny());
    await auditRequestsView(db, session, rows, query);
    return json(rows);
  },
});

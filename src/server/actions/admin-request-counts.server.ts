/** /api/admin/request-counts: the navigation's figure of patient requests (docs/decisions/036-patient-requests.md); counts only, no patient data. */
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { requestCounts } from '../requests/staff.server';

export const countRequests = adminAction({ run: async ({ db }) => json(await requestCounts(db)) });

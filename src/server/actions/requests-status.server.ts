/** /api/requests/status?token=: the patient's status page of a request (docs/decisions/036-patient-requests.md). */
import { requestStatusQuerySchema } from '../../lib/request-schema';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';
import { requestStatus } from '../requests/status.server';

export const showStatus = publicAction({
  query: requestStatusQuerySchema,
  run: async ({ db, query }) => json(await requestStatus(db, query.token, await dataKeyRingIfAny())),
});

/**
 * /api/admin/requests/:id: a request's next status, with the practice's
 * message to the patient (docs/decisions/036-patient-requests.md). Done and
 * declined email the patient through the outbox, after the answer; every
 * change is audited in its own transaction.
 */
import { requestStatusChangeSchema } from '../../lib/request-schema';
import { dataKeyRing } from '../appointment-contact/keys.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { readEnv } from '../env.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { changeRequestStatus } from '../requests/staff.server';

export const changePatientRequest = adminAction({
  item: 'request',
  body: requestStatusChangeSchema,
  run: async ({ db, ctx, session, params: { id }, body }) => {
    // The message is sealed like the details: without a key, 503 not-configured and nothing changes.
    const keys = await dataKeyRing();
    const { emailIds, ...row } = await changeRequestStatus(db, session, id, body, { keys, siteUrl: readEnv().SITE_URL });
    if (emailIds.length) deliverAfterResponse(ctx);
    return json(row);
  },
});

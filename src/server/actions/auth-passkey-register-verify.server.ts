/** /api/auth/passkey/register/verify: the browser's answer checked and the passkey kept under its name. */
import { passkeyRegistrationSchema } from '../../lib/passkey-schemas';
import { registerPasskey } from '../auth/passkeys.server';
import { json } from '../http.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { sessionAction } from '../http/session-route.server';

export const passkeyRegistrationVerify = sessionAction({
  session: 'enrolment',
  body: passkeyRegistrationSchema,
  run: async ({ db, ctx, session, body }) => {
    const passkey = await registerPasskey(db, session, body);
    // The owner's notice of the change (docs/decisions/041) is sent after the answer.
    deliverAfterResponse(ctx);
    return json(passkey);
  },
});

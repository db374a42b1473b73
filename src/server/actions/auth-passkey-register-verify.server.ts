/** /api/auth/passkey/register/verify: the browser's answer checked and the passkey kept under its name. */
import { passkeyRegistrationSchema } from '../../lib/passkey-schemas';
import { registerPasskey } from '../auth/passkeys.server';
import { json } from '../http.server';
import { sessionAction } from '../http/session-route.server';

export const passkeyRegistrationVerify = sessionAction({
  session: 'enrolment',
  body: passkeyRegistrationSchema,
  run: async ({ db, session, body }) => json(await registerPasskey(db, session, body)),
});

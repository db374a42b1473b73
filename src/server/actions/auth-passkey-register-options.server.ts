/** /api/auth/passkey/register/options: a new passkey's options, after the current password (docs/decisions/037-passkeys-sessions-guessing.md). */
import { factorProofSchema } from '../../lib/auth-schemas';
import { registrationOptions } from '../auth/passkeys.server';
import { json } from '../http.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { sessionAction } from '../http/session-route.server';

export const passkeyRegistrationOptions = sessionAction({
  session: 'enrolment',
  body: factorProofSchema,
  run: async ({ db, ctx, session, body }) => {
    const answer = json(await registrationOptions(db, session, body, ctx.ip));
    // A recovery code given as proof tells its owner (docs/decisions/041): sent after the answer.
    if (body.code) deliverAfterResponse(ctx);
    return answer;
  },
});

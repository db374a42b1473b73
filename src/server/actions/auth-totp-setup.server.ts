/** /api/auth/totp/setup: the second factor's setup started (the current password required; docs/decisions/037-passkeys-sessions-guessing.md). */
import { factorProofSchema } from '../../lib/auth-schemas';
import { startEnrolment } from '../auth/second-factor.server';
import { json } from '../http.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { sessionAction } from '../http/session-route.server';

export const startSecondFactor = sessionAction({
  session: 'enrolment',
  body: factorProofSchema,
  run: async ({ db, ctx, session, body }) => {
    const answer = json(await startEnrolment(db, session, body, ctx.ip));
    // A recovery code given as proof tells its owner (docs/decisions/041): sent after the answer.
    if (body.code) deliverAfterResponse(ctx);
    return answer;
  },
});

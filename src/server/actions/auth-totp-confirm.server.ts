/** /api/auth/totp/confirm: the second factor's setup confirmed with a code. */
import { secondFactorCodeSchema } from '../../lib/auth-schemas';
import { confirmEnrolment } from '../auth/second-factor.server';
import { json } from '../http.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { sessionAction } from '../http/session-route.server';

export const confirmSecondFactor = sessionAction({
  session: 'enrolment',
  body: secondFactorCodeSchema,
  run: async ({ db, ctx, session, body: { code } }) => {
    const codes = await confirmEnrolment(db, session, code, ctx.ip);
    // The owner's notice of the change (docs/decisions/041) is sent after the answer.
    deliverAfterResponse(ctx);
    return json(codes);
  },
});

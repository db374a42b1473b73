/** /api/auth/totp: "Mein Konto": the own second factor's state, and removing it with a recovery code. */
import { secondFactorCodeSchema } from '../../lib/auth-schemas';
import { removeOwnSecondFactor, secondFactorStatus } from '../auth/second-factor.server';
import { json } from '../http.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { sessionAction } from '../http/session-route.server';

export const ownSecondFactor = sessionAction({ session: 'enrolment', run: async ({ db, session }) => json(await secondFactorStatus(db, session.user.id)) });

export const removeSecondFactor = sessionAction({
  session: 'required',
  body: secondFactorCodeSchema,
  run: async ({ db, ctx, session, body: { code } }) => {
    await removeOwnSecondFactor(db, session, code, ctx.ip);
    // The owner's notice of the change (docs/decisions/041) is sent after the answer.
    deliverAfterResponse(ctx);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

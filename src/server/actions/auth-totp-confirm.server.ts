/** /api/auth/totp/confirm: the second factor's setup confirmed with a code. */
import { secondFactorCodeSchema } from '../../lib/auth-schemas';
import { confirmEnrolment } from '../auth/second-factor.server';
import { json } from '../http.server';
import { sessionAction } from '../http/session-route.server';

export const confirmSecondFactor = sessionAction({
  session: 'enrolment',
  body: secondFactorCodeSchema,
  run: async ({ db, ctx, session, body: { code } }) => json(await confirmEnrolment(db, session, code, ctx.ip)),
});

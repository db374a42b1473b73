/** /api/auth/second-factor: the code step of signing in. */
import { secondFactorCodeSchema } from '../../lib/auth-schemas';
import { PENDING_SIGN_IN_COOKIE, clearedPendingSignInCookie, readCookies } from '../auth/cookies.server';
import { sessionResponse } from '../auth/responses.server';
import { completeSignIn } from '../auth/second-factor.server';
import { SIX_DIGITS } from '../auth/totp-codes.server';
import { sessionUserAgent } from '../auth/sessions.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { readEnv } from '../env.server';
import { publicAction } from '../http/route.server';

export const completeWithCode = publicAction({
  body: secondFactorCodeSchema,
  run: async ({ db, req, ctx, body: { code } }) => {
    // A wrong code may have queued the owner's alert (docs/decisions/037-passkeys-sessions-guessing.md): sent after the answer, refusal or not.
    let alerts: string[] = [];
    try {
      const issued = await completeSignIn(
        db,
        readCookies(req)[PENDING_SIGN_IN_COOKIE],
        code,
        { ip: ctx.ip, userAgent: sessionUserAgent(req) },
        { siteUrl: readEnv().SITE_URL, queued: (ids) => (alerts = ids) },
      );
      const res = sessionResponse(req, issued);
      res.headers.append('set-cookie', clearedPendingSignInCookie(req));
      // A recovery code that signed in tells its owner (docs/decisions/041): queued with it, sent after the answer.
      if (!SIX_DIGITS.test(code.trim())) deliverAfterResponse(ctx);
      return res;
    } finally {
      if (alerts.length > 0) deliverAfterResponse(ctx);
    }
  },
});

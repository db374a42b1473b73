/** /api/auth/passkey/login/verify: a passkey sign-in checked; the session's cookies as after the code step. */
import { passkeyAuthenticationSchema } from '../../lib/passkey-schemas';
import { PASSKEY_SIGN_IN_COOKIE, clearedPasskeySignInCookie, clearedPendingSignInCookie, readCookies } from '../auth/cookies.server';
import { signInWithPasskey } from '../auth/passkeys.server';
import { sessionResponse } from '../auth/responses.server';
import { sessionUserAgent } from '../auth/sessions.server';
import { publicAction } from '../http/route.server';

export const passkeyLoginVerify = publicAction({
  body: passkeyAuthenticationSchema,
  run: async ({ db, req, body }) => {
    const issued = await signInWithPasskey(db, readCookies(req)[PASSKEY_SIGN_IN_COOKIE], body, { userAgent: sessionUserAgent(req) });
    const res = sessionResponse(req, issued);
    res.headers.append('set-cookie', clearedPasskeySignInCookie(req));
    // A password step begun before is no longer needed.
    res.headers.append('set-cookie', clearedPendingSignInCookie(req));
    return res;
  },
});

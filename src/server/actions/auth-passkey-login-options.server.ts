/** /api/auth/passkey/login/options: "Mit Passkey anmelden" begins; the challenge's id goes into a cookie of this browser. */
import { passkeySignInCookie } from '../auth/cookies.server';
import { PASSKEY_CHALLENGE_TTL_SECONDS, authenticationOptions } from '../auth/passkey-sign-in.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

export const passkeyLoginOptions = publicAction({
  run: async ({ db, req, ctx }) => {
    const { options, challengeId } = await authenticationOptions(db, ctx.ip);
    return json(options, { headers: { 'set-cookie': passkeySignInCookie(req, challengeId, PASSKEY_CHALLENGE_TTL_SECONDS) } });
  },
});

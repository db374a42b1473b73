/** /api/auth/login: the password step of signing in. */
import { loginSchema } from '../../lib/auth-schemas';
import { login } from '../auth/auth.server';
import { pendingSignInCookie } from '../auth/cookies.server';
import { sessionResponse } from '../auth/responses.server';
import { PENDING_TTL_SECONDS } from '../auth/second-factor-pending.server';
import { sessionUserAgent } from '../auth/sessions.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

export const signIn = publicAction({
  body: loginSchema,
  run: async ({ db, req, ctx, body }) => {
    const step = await login(db, body, ctx.ip, new Date(), sessionUserAgent(req));
    if ('session' in step) return sessionResponse(req, step.session);
    // An account with a second factor: no session yet, only the pending sign-in for the code step.
    return json({ second_factor: 'required' }, { headers: { 'set-cookie': pendingSignInCookie(req, step.pendingToken, PENDING_TTL_SECONDS) } });
  },
});

import { getDb } from '../../db/client';
import { loginSchema } from '../../src/lib/auth-schemas';
import { login } from '../../src/server/auth/auth.server';
import { pendingSignInCookie } from '../../src/server/auth/cookies.server';
import { sessionResponse } from '../../src/server/auth/responses.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { PENDING_TTL_SECONDS } from '../../src/server/auth/second-factor-pending.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const input = parseInput(loginSchema, await readJson(req));
    const step = await login(await getDb(), input, ctx.ip);
    if ('session' in step) return sessionResponse(req, step.session);
    // An account with a second factor: no session yet, only the pending sign-in for the code step.
    return json(
      { second_factor: 'required' },
      { headers: { 'set-cookie': pendingSignInCookie(req, step.pendingToken, PENDING_TTL_SECONDS) } },
    );
  },
});

export const config = { path: '/api/auth/login' };

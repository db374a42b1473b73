import { getDb } from '../../db/client';
import { secondFactorCodeSchema } from '../../src/lib/auth-schemas';
import { PENDING_SIGN_IN_COOKIE, clearedPendingSignInCookie, readCookies } from '../../src/server/auth/cookies.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { sessionResponse } from '../../src/server/auth/responses.server';
import { completeSignIn } from '../../src/server/auth/second-factor.server';
import { parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const { code } = parseInput(secondFactorCodeSchema, await readJson(req));
    const issued = await completeSignIn(await getDb(), readCookies(req)[PENDING_SIGN_IN_COOKIE], code, ctx.ip);
    const res = sessionResponse(req, issued);
    res.headers.append('set-cookie', clearedPendingSignInCookie(req));
    return res;
  },
});

export const config = { path: '/api/auth/second-factor' };

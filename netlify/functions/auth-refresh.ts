import { getDb } from '../../db/client';
import { NO_SESSION } from '../../src/server/auth/auth.server';
import { REFRESH_COOKIE, clearedCookies, readCookies } from '../../src/server/auth/cookies.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { sessionResponse } from '../../src/server/auth/responses.server';
import { rotateSession } from '../../src/server/auth/sessions.server';
import { problem, route } from '../../src/server/http.server';

export default route({
  POST: async (req) => {
    assertSameOrigin(req);
    const token = readCookies(req)[REFRESH_COOKIE];
    const issued = token ? await rotateSession(await getDb(), token) : null;
    if (!issued) {
      const headers = new Headers();
      for (const c of clearedCookies(req)) headers.append('set-cookie', c);
      return problem(401, 'unauthenticated', NO_SESSION, undefined, headers);
    }
    return sessionResponse(req, issued);
  },
});

export const config = { path: '/api/auth/refresh' };

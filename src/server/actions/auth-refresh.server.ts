/** /api/auth/refresh: a new access token for a valid refresh token; 401 with the cookies cleared otherwise. */
import { NO_SESSION } from '../auth/auth.server';
import { REFRESH_COOKIE, clearedCookies, readCookies } from '../auth/cookies.server';
import { sessionResponse } from '../auth/responses.server';
import { rotateSession } from '../auth/sessions.server';
import { problem } from '../http.server';
import { publicAction } from '../http/route.server';

export const refreshSession = publicAction({
  run: async ({ db, req }) => {
    const token = readCookies(req)[REFRESH_COOKIE];
    const issued = token ? await rotateSession(db, token) : null;
    if (!issued) {
      const headers = new Headers();
      for (const c of clearedCookies(req)) headers.append('set-cookie', c);
      return problem(401, 'unauthenticated', NO_SESSION, undefined, headers);
    }
    return sessionResponse(req, issued);
  },
});

/**
 * /api/auth/refresh: a new access token for a valid refresh token; 401 with
 * the cookies cleared otherwise. A token of a session ended under
 * "Angemeldete Geräte" (by its owner elsewhere or by an admin) answers 401
 * with `reason: "session-ended"`, so that device's sign-in page can say why;
 * only the token's holder learns it (docs/decisions/041-staff-messages-devices-printouts.md).
 */
import { NO_SESSION } from '../auth/auth.server';
import { REFRESH_COOKIE, clearedCookies, readCookies } from '../auth/cookies.server';
import { endedByStaff } from '../auth/devices.server';
import { sessionResponse } from '../auth/responses.server';
import { rotateSession } from '../auth/sessions.server';
import { refreshTokenSessionId, sha256Hex } from '../auth/tokens.server';
import { problem } from '../http.server';
import { publicAction } from '../http/route.server';

export const refreshSession = publicAction({
  run: async ({ db, req }) => {
    const token = readCookies(req)[REFRESH_COOKIE];
    const issued = token ? await rotateSession(db, token) : null;
    if (!issued) {
      const headers = new Headers();
      for (const c of clearedCookies(req)) headers.append('set-cookie', c);
      const sessionId = token ? refreshTokenSessionId(token) : null;
      const ended = token && sessionId ? await endedByStaff(db, sha256Hex(token), sessionId) : false;
      return problem(401, 'unauthenticated', NO_SESSION, undefined, headers, ended ? { reason: 'session-ended' } : undefined);
    }
    return sessionResponse(req, issued);
  },
});

/** /api/auth/logout: the session revoked, the cookies cleared. */
import { ACCESS_COOKIE, REFRESH_COOKIE, clearedCookies, readCookies } from '../auth/cookies.server';
import { revokeSession } from '../auth/sessions.server';
import { verifyAccessToken } from '../auth/tokens.server';
import { publicAction } from '../http/route.server';

export const signOut = publicAction({
  run: async ({ db, req }) => {
    const cookies = readCookies(req);
    const access = cookies[ACCESS_COOKIE] ? await verifyAccessToken(cookies[ACCESS_COOKIE]) : null;
    await revokeSession(db, { refreshToken: cookies[REFRESH_COOKIE], sessionId: access?.sessionId });
    const headers = new Headers({ 'cache-control': 'no-store' });
    for (const c of clearedCookies(req)) headers.append('set-cookie', c);
    return new Response(null, { status: 204, headers });
  },
});

import { getDb } from '../../db/client';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearedCookies, readCookies } from '../../src/server/auth/cookies.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { revokeSession } from '../../src/server/auth/sessions.server';
import { verifyAccessToken } from '../../src/server/auth/tokens.server';
import { route } from '../../src/server/http.server';

export default route({
  POST: async (req) => {
    assertSameOrigin(req);
    const cookies = readCookies(req);
    const access = cookies[ACCESS_COOKIE] ? await verifyAccessToken(cookies[ACCESS_COOKIE]) : null;
    await revokeSession(await getDb(), { refreshToken: cookies[REFRESH_COOKIE], sessionId: access?.sessionId });
    const headers = new Headers({ 'cache-control': 'no-store' });
    for (const c of clearedCookies(req)) headers.append('set-cookie', c);
    return new Response(null, { status: 204, headers });
  },
});

export const config = { path: '/api/auth/logout' };

/** /api/admin/users/:id/sessions/:session: one of a colleague's sessions ended (docs/decisions/037-passkeys-sessions-guessing.md). */
import { UUID } from '../../lib/uuid';
import { endColleagueSessions } from '../auth/devices.server';
import { notFound } from '../admin/shared.server';
import { adminAction } from '../http/session-route.server';

export const endColleagueSession = adminAction({
  item: 'user',
  run: async ({ db, ctx, session, params: { id } }) => {
    const sessionId = ctx.params.session ?? '';
    if (!UUID.test(sessionId)) throw notFound('session');
    await endColleagueSessions(db, session, id, sessionId.toLowerCase());
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

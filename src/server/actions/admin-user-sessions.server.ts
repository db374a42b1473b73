/** /api/admin/users/:id/sessions: a colleague's live sessions, listed and all ended (docs/decisions/037-passkeys-sessions-guessing.md). */
import { endColleagueSessions, listColleagueSessions } from '../auth/devices.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const colleagueSessions = adminAction({
  item: 'user',
  run: async ({ db, session, params: { id } }) => json(await listColleagueSessions(db, id, session.sessionId)),
});

export const endAllColleagueSessions = adminAction({
  item: 'user',
  run: async ({ db, session, params: { id } }) => {
    await endColleagueSessions(db, session, id);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

/** /api/auth/sessions: "Angemeldete Geräte", the own account's live sessions (docs/decisions/037-passkeys-sessions-guessing.md). */
import { listSessions } from '../auth/devices.server';
import { json } from '../http.server';
import { sessionAction } from '../http/session-route.server';

export const ownSessions = sessionAction({
  session: 'required',
  run: async ({ db, session }) => json(await listSessions(db, session.user.id, session.sessionId)),
});

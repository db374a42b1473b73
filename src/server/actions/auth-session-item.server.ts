/**
 * /api/auth/sessions/:id: "Abmelden" for one of the own account's sessions
 * (DELETE), and "Alle anderen abmelden" (POST /api/auth/sessions/end-others:
 * one function serves both, since Netlify gives no precedence between a
 * literal path and a parameter at the same place); PUT names one of the
 * own sessions ("Empfang PC 2", docs/decisions/041-staff-messages-devices-printouts.md).
 */
import { sessionNameSchema } from '../../lib/account-schemas';
import { AppError } from '../../lib/errors';
import { clearedCookies } from '../auth/cookies.server';
import { endOtherSessions, endOwnSession, nameOwnSession } from '../auth/devices.server';
import { json } from '../http.server';
import { sessionAction } from '../http/session-route.server';

const noStore = () => new Headers({ 'cache-control': 'no-store' });

export const endSession = sessionAction({
  session: 'required',
  item: 'session',
  run: async ({ db, req, session, params: { id } }) => {
    await endOwnSession(db, session, id);
    const headers = noStore();
    // Ending the session one is using is signing out: its cookies go too.
    if (id === session.sessionId) for (const c of clearedCookies(req)) headers.append('set-cookie', c);
    return new Response(null, { status: 204, headers });
  },
});

export const endOthers = sessionAction({
  session: 'required',
  run: async ({ db, ctx, session }) => {
    if (ctx.params.id !== 'end-others') throw new AppError('not-found', 'Unknown session action.');
    await endOtherSessions(db, session);
    return new Response(null, { status: 204, headers: noStore() });
  },
});

/** 200 the session as "Angemeldete Geräte" lists it; 404 for a session that is not a live one of this account. */
export const nameSession = sessionAction({
  session: 'required',
  item: 'session',
  body: sessionNameSchema,
  run: async ({ db, session, params: { id }, body }) => json(await nameOwnSession(db, session, id, body.name), { headers: noStore() }),
});

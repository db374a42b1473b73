/** /api/auth/session: who is signed in. */
import { json } from '../http.server';
import { sessionAction } from '../http/session-route.server';

/** Answers a session that must still enrol too: the back office then leads it to "Mein Konto". */
export const currentSession = sessionAction({
  session: 'enrolment',
  run: ({ session: { user, isAdmin, expiresAt, secondFactor } }) => json({ user, isAdmin, expiresAt, secondFactor }),
});

/** /api/auth/session: who is signed in. */
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

/** Answers a session that must still enrol too: the back office then leads it to "Mein Konto". */
export const currentSession = publicAction({
  session: 'enrolment',
  run: ({ session: { user, isAdmin, expiresAt, secondFactor } }) => json({ user, isAdmin, expiresAt, secondFactor }),
});

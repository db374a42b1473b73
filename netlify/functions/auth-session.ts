import { requireSession } from '../../src/server/auth/auth.server';
import { json, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    // Answers a session that must still enrol too: the back office then leads it to "Mein Konto".
    const { user, isAdmin, expiresAt, secondFactor } = await requireSession(req, undefined, { enrolment: true });
    return json({ user, isAdmin, expiresAt, secondFactor });
  },
});

export const config = { path: '/api/auth/session' };

import { requireSession } from '../../src/server/auth/auth.server';
import { json, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const { user, isAdmin, expiresAt } = await requireSession(req);
    return json({ user, isAdmin, expiresAt });
  },
});

export const config = { path: '/api/auth/session' };

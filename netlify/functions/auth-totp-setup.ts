import { getDb } from '../../db/client';
import { requireSession } from '../../src/server/auth/auth.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { startEnrolment } from '../../src/server/auth/second-factor.server';
import { json, route } from '../../src/server/http.server';

export default route({
  POST: async (req) => {
    assertSameOrigin(req);
    const db = await getDb();
    const session = await requireSession(req, db, { enrolment: true });
    return json(await startEnrolment(db, session));
  },
});

export const config = { path: '/api/auth/totp/setup' };

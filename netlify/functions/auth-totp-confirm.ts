import { getDb } from '../../db/client';
import { secondFactorCodeSchema } from '../../src/lib/auth-schemas';
import { requireSession } from '../../src/server/auth/auth.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { confirmEnrolment } from '../../src/server/auth/second-factor.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const db = await getDb();
    const session = await requireSession(req, db, { enrolment: true });
    const { code } = parseInput(secondFactorCodeSchema, await readJson(req));
    return json(await confirmEnrolment(db, session, code, ctx.ip));
  },
});

export const config = { path: '/api/auth/totp/confirm' };

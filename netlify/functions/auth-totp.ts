import { getDb } from '../../db/client';
import { secondFactorCodeSchema } from '../../src/lib/auth-schemas';
import { requireSession } from '../../src/server/auth/auth.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { removeOwnSecondFactor, secondFactorStatus } from '../../src/server/auth/second-factor.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

/** "Mein Konto": the own second factor's state, and removing it with a recovery code. */
export default route({
  GET: async (req) => {
    const db = await getDb();
    const session = await requireSession(req, db, { enrolment: true });
    return json(await secondFactorStatus(db, session.user.id));
  },
  DELETE: async (req, ctx) => {
    assertSameOrigin(req);
    const db = await getDb();
    const session = await requireSession(req, db);
    const { code } = parseInput(secondFactorCodeSchema, await readJson(req));
    await removeOwnSecondFactor(db, session, code, ctx.ip);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

export const config = { path: '/api/auth/totp' };

import { getDb } from '../../db/client';
import { passwordChangeSchema } from '../../src/lib/account-schemas';
import { changePassword } from '../../src/server/auth/accounts.server';
import { requireSession } from '../../src/server/auth/auth.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { assertUncommonPassword } from '../../src/server/auth/password-policy.server';
import { parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req) => {
    assertSameOrigin(req);
    const db = await getDb();
    const session = await requireSession(req, db);
    const input = parseInput(passwordChangeSchema, await readJson(req));
    await assertUncommonPassword(input.newPassword, 'newPassword');
    await changePassword(db, session, input);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

export const config = { path: '/api/auth/password' };

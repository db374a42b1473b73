import { getDb } from '../../db/client';
import { resetPasswordSchema } from '../../src/lib/account-schemas';
import { resetPassword } from '../../src/server/auth/accounts.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req) => {
    assertSameOrigin(req);
    const input = parseInput(resetPasswordSchema, await readJson(req));
    await resetPassword(await getDb(), input);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

export const config = { path: '/api/auth/reset' };

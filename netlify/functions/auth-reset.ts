import { getDb } from '../../db/client';
import { resetPasswordSchema } from '../../src/lib/account-schemas';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { resetPassword } from '../../src/server/auth/reset.server';
import { parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const input = parseInput(resetPasswordSchema, await readJson(req));
    await resetPassword(await getDb(), input, ctx.ip);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

export const config = { path: '/api/auth/reset' };

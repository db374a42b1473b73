import { getDb } from '../../db/client';
import { resetPasswordSchema } from '../../src/lib/account-schemas';
import { linkAccount } from '../../src/server/auth/link-account.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { resetPassword } from '../../src/server/auth/reset.server';
import { json, parseInput, queryOf, readJson, route } from '../../src/server/http.server';

export default route({
  // Which account the link is for (the page names it); 404 for a link that cannot be used.
  GET: async (req) => json(await linkAccount(await getDb(), queryOf(req).token)),
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const input = parseInput(resetPasswordSchema, await readJson(req));
    await resetPassword(await getDb(), input, ctx.ip);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

export const config = { path: '/api/auth/reset' };

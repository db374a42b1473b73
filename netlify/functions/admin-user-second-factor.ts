import { getDb } from '../../db/client';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { resetColleagueSecondFactor } from '../../src/server/auth/second-factor.server';
import { createEmailSender } from '../../src/server/email/email.server';
import { readEnv } from '../../src/server/env.server';
import { route } from '../../src/server/http.server';

export default route({
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const env = readEnv();
    await resetColleagueSecondFactor(db, session, itemId(ctx, 'user'), { email: createEmailSender(env), siteUrl: env.SITE_URL });
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

export const config = { path: '/api/admin/users/:id/second-factor' };

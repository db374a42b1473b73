/** /api/admin/users/:id/second-factor: a colleague's second factor reset. */
import { resetColleagueSecondFactor } from '../auth/second-factor.server';
import { createEmailSender } from '../email/email.server';
import { readEnv } from '../env.server';
import { adminAction } from '../http/session-route.server';

export const resetSecondFactor = adminAction({
  item: 'user',
  run: async ({ db, session, params: { id } }) => {
    const env = readEnv();
    await resetColleagueSecondFactor(db, session, id, { email: createEmailSender(env), siteUrl: env.SITE_URL });
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

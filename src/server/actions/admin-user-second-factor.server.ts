/** /api/admin/users/:id/second-factor: a colleague's second factor reset. */
import { resetColleagueSecondFactor } from '../auth/second-factor.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { readEnv } from '../env.server';
import { adminAction } from '../http/session-route.server';

export const resetSecondFactor = adminAction({
  item: 'user',
  run: async ({ db, session, ctx, params: { id } }) => {
    const env = readEnv();
    await resetColleagueSecondFactor(db, session, id, { siteUrl: env.SITE_URL });
    deliverAfterResponse(ctx);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

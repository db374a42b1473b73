/** /api/auth/reset: a password link's account, and the new password. */
import { resetPasswordSchema } from '../../lib/account-schemas';
import { linkAccount } from '../auth/link-account.server';
import { resetPassword } from '../auth/reset.server';
import { json, queryOf } from '../http.server';
import { publicAction } from '../http/route.server';

/** Which account the link is for (the page names it); 404 for a link that cannot be used. */
export const showLinkAccount = publicAction({ run: async ({ db, req }) => json(await linkAccount(db, queryOf(req).token)) });

export const setNewPassword = publicAction({
  body: resetPasswordSchema,
  run: async ({ db, ctx, body }) => {
    await resetPassword(db, body, ctx.ip);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

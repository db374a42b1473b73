/** /api/auth/password: the own password changed. */
import { passwordChangeSchema } from '../../lib/account-schemas';
import { changePassword } from '../auth/accounts.server';
import { assertUncommonPassword } from '../auth/password-policy.server';
import { sessionAction } from '../http/session-route.server';

export const changeOwnPassword = sessionAction({
  session: 'required',
  body: passwordChangeSchema,
  run: async ({ db, session, body }) => {
    await assertUncommonPassword(body.newPassword, 'newPassword');
    await changePassword(db, session, body);
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  },
});

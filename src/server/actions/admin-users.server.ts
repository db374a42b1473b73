/** /api/admin/users: the staff accounts, listed and created (by invitation or with an initial password). */
import { newUserSchema } from '../../lib/account-schemas';
import { createStaffUser, listUsers } from '../admin/users.server';
import { assertUncommonPassword } from '../auth/password-policy.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { readEnv } from '../env.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const listStaff = adminAction({ run: async ({ db }) => json(await listUsers(db)) });

export const createStaff = adminAction({
  body: newUserSchema,
  run: async ({ db, session, ctx, body: input }) => {
    if (input.password !== undefined) await assertUncommonPassword(input.password, 'password');
    const env = readEnv();
    const { user, invitationSent } = await createStaffUser(
      db,
      session,
      input,
      input.invite ? { siteUrl: env.SITE_URL, invitedBy: session.user.email } : undefined,
    );
    if (invitationSent) deliverAfterResponse(ctx);
    return json(input.invite ? { ...user, invitationSent } : user, { status: 201 });
  },
});

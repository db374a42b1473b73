/** /api/admin/users/:id/invite: a pending colleague gets a new invitation; the old link stops working. */
import { resendInvitation } from '../admin/invitations.server';
import { createEmailSender } from '../email/email.server';
import { readEnv } from '../env.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const reinvite = adminAction({
  item: 'user',
  run: async ({ db, session, params: { id } }) => {
    const env = readEnv();
    const mail = { email: createEmailSender(env), siteUrl: env.SITE_URL, invitedBy: session.user.email };
    return json(await resendInvitation(db, session, id, mail), { status: 201 });
  },
});

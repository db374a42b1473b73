/** /api/admin/users/:id/invite: a pending colleague gets a new invitation; the old link stops working. */
import { resendInvitation } from '../admin/invitations.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { readEnv } from '../env.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const reinvite = adminAction({
  item: 'user',
  run: async ({ db, session, ctx, params: { id } }) => {
    const env = readEnv();
    const mail = { siteUrl: env.SITE_URL, invitedBy: session.user.email };
    const sent = await resendInvitation(db, session, id, mail);
    deliverAfterResponse(ctx);
    return json(sent, { status: 201 });
  },
});

import { getDb } from '../../db/client';
import { resendInvitation } from '../../src/server/admin/invitations.server';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { createEmailSender } from '../../src/server/email/email.server';
import { readEnv } from '../../src/server/env.server';
import { json, route } from '../../src/server/http.server';

export default route({
  // Sends a pending colleague a new invitation; the old link stops working.
  POST: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const env = readEnv();
    const mail = { email: createEmailSender(env), siteUrl: env.SITE_URL, invitedBy: session.user.email };
    return json(await resendInvitation(db, session, itemId(ctx, 'user'), mail), { status: 201 });
  },
});

export const config = { path: '/api/admin/users/:id/invite' };

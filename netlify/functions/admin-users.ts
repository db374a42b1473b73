import { getDb } from '../../db/client';
import { newUserSchema } from '../../src/lib/account-schemas';
import { createStaffUser, listUsers } from '../../src/server/admin/users.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { assertUncommonPassword } from '../../src/server/auth/password-policy.server';
import { createEmailSender } from '../../src/server/email/email.server';
import { readEnv } from '../../src/server/env.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listUsers(db));
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(newUserSchema, await readJson(req));
    if (input.password !== undefined) await assertUncommonPassword(input.password, 'password');
    const env = readEnv();
    const { user, invitationSent } = await createStaffUser(
      db,
      session,
      input,
      input.invite ? { email: createEmailSender(env), siteUrl: env.SITE_URL, invitedBy: session.user.email } : undefined,
    );
    return json(input.invite ? { ...user, invitationSent } : user, { status: 201 });
  },
});

export const config = { path: '/api/admin/users' };

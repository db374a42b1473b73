/** /api/auth/setup: the first admin, with the setup word. */
import { adminSetupSchema } from '../../lib/auth-schemas';
import { setupFirstAdmin } from '../auth/auth.server';
import { assertUncommonPassword } from '../auth/password-policy.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

export const setupAdmin = publicAction({
  body: adminSetupSchema,
  run: async ({ db, ctx, body }) => {
    await assertUncommonPassword(body.password, 'password');
    return json({ user: await setupFirstAdmin(db, body, ctx.ip) }, { status: 201 });
  },
});

import { getDb } from '../../db/client';
import { forgotPasswordSchema } from '../../src/lib/account-schemas';
import { requestPasswordReset } from '../../src/server/auth/accounts.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { createEmailSender } from '../../src/server/email/email.server';
import { readEnv } from '../../src/server/env.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const input = parseInput(forgotPasswordSchema, await readJson(req));
    const env = readEnv();
    await requestPasswordReset(
      {
        db: await getDb(),
        email: createEmailSender(env),
        siteUrl: env.SITE_URL,
        secret: env.JWT_SECRET ?? env.ADMIN_SETUP_SECRET ?? 'local-development-only',
      },
      input.email,
      ctx.ip,
    );
    // The same answer whether or not the address has an account.
    return json({ accepted: true }, { status: 202 });
  },
});

export const config = { path: '/api/auth/forgot' };

import { getDb } from '../../db/client';
import { forgotPasswordSchema } from '../../src/lib/account-schemas';
import { sendResetLink, takeForgotAllowance } from '../../src/server/auth/forgot.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { createEmailSender } from '../../src/server/email/email.server';
import { readEnv } from '../../src/server/env.server';
import { afterResponse, json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req, ctx) => {
    assertSameOrigin(req);
    const input = parseInput(forgotPasswordSchema, await readJson(req));
    const env = readEnv();
    const db = await getDb();
    await takeForgotAllowance(db, ctx.ip);
    // The same answer, at the same time, whether or not the address has an
    // account: the lookup and the email run after it.
    afterResponse(ctx, 'password reset link', () =>
      sendResetLink({ db, email: createEmailSender(env), siteUrl: env.SITE_URL }, input.email),
    );
    return json({ accepted: true }, { status: 202 });
  },
});

export const config = { path: '/api/auth/forgot' };

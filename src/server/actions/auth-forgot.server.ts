/** /api/auth/forgot: "Passwort vergessen". */
import { forgotPasswordSchema } from '../../lib/account-schemas';
import { sendResetLink, takeForgotAllowance } from '../auth/forgot.server';
import { createEmailSender } from '../email/email.server';
import { readEnv } from '../env.server';
import { afterResponse, json } from '../http.server';
import { publicAction } from '../http/route.server';

export const forgotPassword = publicAction({
  body: forgotPasswordSchema,
  run: async ({ db, ctx, body }) => {
    const env = readEnv();
    await takeForgotAllowance(db, ctx.ip);
    // The same answer, at the same time, whether or not the address has an
    // account: the lookup and the email run after it.
    afterResponse(ctx, 'password reset link', () => sendResetLink({ db, email: createEmailSender(env), siteUrl: env.SITE_URL }, body.email));
    return json({ accepted: true }, { status: 202 });
  },
});

/** /api/auth/forgot: "Passwort vergessen". */
import { forgotPasswordSchema } from '../../lib/account-schemas';
import { sendResetLink, takeForgotAllowance } from '../auth/forgot.server';
import { runDelivery } from '../email/delivery.server';
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
    afterResponse(ctx, 'password reset link', async () => {
      const ids = await sendResetLink({ db, siteUrl: env.SITE_URL }, body.email);
      if (ids.length) await runDelivery({ ids });
    });
    return json({ accepted: true }, { status: 202 });
  },
});

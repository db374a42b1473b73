import { getDb } from '../../db/client';
import { contactMessageSchema, type ContactResponse } from '../../src/lib/contact-message';
import { sendContactMessage } from '../../src/server/contact.server';
import { createEmailSender } from '../../src/server/email/email.server';
import { readEnv } from '../../src/server/env.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { serverHashKey } from '../../src/server/server-key.server';

export default route({
  POST: async (req, ctx) => {
    const message = parseInput(contactMessageSchema, await readJson(req));
    const env = readEnv();
    const outcome = await sendContactMessage(
      {
        db: await getDb(),
        email: createEmailSender(env),
        practiceEmail: env.PRACTICE_EMAIL,
        secret: serverHashKey(env),
      },
      message,
      ctx.ip,
    );
    if (outcome.status === 'email-failed') {
      return json({ success: false, error: 'The message could not be sent.' } satisfies ContactResponse, { status: 502 });
    }
    return json({ success: true } satisfies ContactResponse);
  },
});

export const config = { path: '/api/contact' };

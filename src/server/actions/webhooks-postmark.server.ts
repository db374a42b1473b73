/** POST /api/webhooks/postmark: the mail service's delivery events (src/server/email/webhook.server.ts). */
import { publicAction } from '../http/route.server';
import { postmarkWebhook } from '../email/webhook.server';

/** Posted by the mail service, not a browser: its Basic credentials stand in for the Origin rule. */
export const receiveEvent = publicAction({
  origin: 'credentials',
  run: ({ db, req, ctx }) => postmarkWebhook(db, req, ctx),
});

/** POST /api/webhooks/sms: the SMS provider's delivery reports (src/server/sms/webhook.server.ts). */
import { publicAction } from '../http/route.server';
import { smsWebhook } from '../sms/webhook.server';

/** Posted by the SMS provider, not a browser: its signature stands in for the Origin rule. */
export const receiveReport = publicAction({
  origin: 'credentials',
  run: ({ db, req }) => smsWebhook(db, req),
});

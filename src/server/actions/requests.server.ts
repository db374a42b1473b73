/**
 * /api/requests (docs/decisions/036-patient-requests.md):
 * - GET: what the request form offers today (the practice's switches and
 *   notice), for the static page to learn at run time.
 * - POST: a patient's request, as JSON (the API), as the form's post with
 *   `Accept: application/json` (the page's small script: a JSON answer), or
 *   as a plain HTML form post without JavaScript (same schema, limits and
 *   Origin rule): received, it answers 303 to the form page showing the
 *   reference (Post/Redirect/Get: a reload shows the answer, it does not
 *   post again); refused, it answers the site's request page with the
 *   outcome and what was typed, with the API's status code
 *   (docs/decisions/040-pages-without-javascript-and-repeated-requests.md).
 *   The same request again within 10 minutes is the first one, however it
 *   comes (create.server.ts).
 */
import { json } from '../http.server';
import { publicAction } from '../http/route.server';
import { offerOf, readRequestSettings } from '../requests/settings.server';
import { smsOffered } from '../sms/sms.server';

export const showOffer = publicAction({
  // `sms`: whether the form may offer the status by SMS (docs/decisions/043-sms-second-channel.md).
  run: async ({ db }) => json({ ...offerOf(await readRequestSettings(db)), sms: smsOffered() }),
});

/** The Origin is checked by the post's own code, loaded with the first post (request-receive.server.ts). */
export const receiveRequest = publicAction({
  origin: 'checked-by-action',
  run: async (call) => (await import('./request-receive.server')).receive(call),
});

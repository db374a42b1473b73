/** /api/waitlist: a patient joins the waitlist. */
import { json } from '../http.server';
import { publicAction } from '../http/route.server';
import { joinAsPatient, joinRequestOf } from '../waitlist/patient.server';

/** Only the site's own pages (or a mail client without Origin) may change an entry. */
export const join = publicAction({
  rawBody: true,
  run: async ({ db, ctx, body }) => json(await joinAsPatient(db, ctx, joinRequestOf(body)), { status: 201 }),
});

/** /api/waitlist: what the form is for, and a patient joining the waitlist. */
import { json, queryOf } from '../http.server';
import { publicAction } from '../http/route.server';
import { formContext, joinAsPatient, joinRequestOf } from '../waitlist/patient.server';

/** The type and the current booking the form names (a read; the same proofs as joining). */
export const context = publicAction({
  run: async ({ db, req }) => json(await formContext(db, queryOf(req))),
});

/** Only the site's own pages (or a mail client without Origin) may change an entry. */
export const join = publicAction({
  rawBody: true,
  run: async ({ db, ctx, body }) => json(await joinAsPatient(db, ctx, joinRequestOf(body)), { status: 201 }),
});

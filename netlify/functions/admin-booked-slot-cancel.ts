import { getDb } from '../../db/client';
import { cancelMessageSchema } from '../../src/lib/admin-schemas';
import { cancelAsStaff } from '../../src/server/admin/booking-changes.server';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

export default route({
  POST: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'booked slot');
    // The message goes to the patient only: never stored, audited or logged.
    const { message } = parseInput(cancelMessageSchema, await readJson(req));
    const cancelled = await cancelAsStaff(db, session, id, message);
    // The seat is free: the waitlist is asked (docs/decisions/032).
    offerAfterResponse(ctx);
    return json(cancelled);
  },
});

export const config = { path: '/api/admin/booked-slots/:id/cancel' };

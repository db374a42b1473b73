import { getDb } from '../../db/client';
import { staffMoveSchema } from '../../src/lib/admin-schemas';
import { moveAsStaff } from '../../src/server/admin/booking-changes.server';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

export default route({
  POST: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'booked slot');
    const input = parseInput(staffMoveSchema, await readJson(req));
    // Same guard as every booking; 409 slot-unavailable with its reason when the time cannot be taken.
    // The message goes to the patient only: never stored, audited or logged.
    const moved = await moveAsStaff(db, session, id, { date: input.appointment_date, time: input.appointment_time }, input.message);
    // The old time is free: the waitlist is asked (docs/decisions/032).
    offerAfterResponse(ctx, moved.booking.appointment_type_id);
    return json(moved);
  },
});

export const config = { path: '/api/admin/booked-slots/:id/move' };

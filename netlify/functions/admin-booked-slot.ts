import { getDb } from '../../db/client';
import { cancelAsStaff } from '../../src/server/admin/booking-changes.server';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, route } from '../../src/server/http.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

export default route({
  // Third round: the same as "Absagen" without a message (API.md), never a silent release.
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const cancelled = await cancelAsStaff(db, session, itemId(ctx, 'booked slot'));
    offerAfterResponse(ctx);
    return json(cancelled);
  },
});

export const config = { path: '/api/admin/booked-slots/:id' };

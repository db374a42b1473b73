import { getDb } from '../../db/client';
import { releaseBookedSlot } from '../../src/server/admin/booked-slots.server';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { route } from '../../src/server/http.server';

export default route({
  DELETE: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    await releaseBookedSlot(db, itemId(ctx, 'booked slot'));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/booked-slots/:id' };

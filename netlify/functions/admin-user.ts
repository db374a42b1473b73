import { getDb } from '../../db/client';
import { itemId } from '../../src/server/admin/shared.server';
import { deleteStaffUser } from '../../src/server/admin/users.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { route } from '../../src/server/http.server';

export default route({
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    await deleteStaffUser(db, session, itemId(ctx, 'user'));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/users/:id' };

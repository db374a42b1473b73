/** /api/admin/users/:id: a colleague's account deleted. */
import { deleteStaffUser } from '../admin/users.server';
import { adminAction } from '../http/session-route.server';

export const deleteStaff = adminAction({
  item: 'user',
  run: async ({ db, session, params: { id } }) => {
    await deleteStaffUser(db, session, id);
    return new Response(null, { status: 204 });
  },
});

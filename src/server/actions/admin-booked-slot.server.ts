/** /api/admin/booked-slots/:id: DELETE is "Absagen" without a message, never a silent release. */
import { cancelAsStaff } from '../admin/booking-changes.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { timesFreed } from '../times-changed.server';

export const deleteBooked = adminAction({
  item: 'booked slot',
  run: async ({ db, session, ctx, params: { id } }) => {
    const cancelled = await cancelAsStaff(db, ctx, session, id);
    timesFreed(ctx);
    return json(cancelled);
  },
});

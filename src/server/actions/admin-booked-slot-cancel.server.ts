/** /api/admin/booked-slots/:id/cancel: "Absagen" with notice to the patient. */
import { cancelMessageSchema } from '../../lib/admin-schemas';
import { cancelAsStaff } from '../admin/booking-changes.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { timesFreed } from '../times-changed.server';

/** The message goes to the patient only: never stored, audited or logged. */
export const cancelBooked = adminAction({
  item: 'booked slot',
  body: cancelMessageSchema,
  run: async ({ db, session, ctx, params: { id }, body: { message, confirm } }) => {
    // 409 message-names-details when the message repeats the type's name and staff have not confirmed it (docs/decisions/041).
    const cancelled = await cancelAsStaff(db, ctx, session, id, { message, confirm });
    // The seat is free: the waitlist is asked (docs/decisions/032).
    timesFreed(ctx);
    return json(cancelled);
  },
});

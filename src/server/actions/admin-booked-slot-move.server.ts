/** /api/admin/booked-slots/:id/move: "Verschieben" with notice to the patient. */
import { staffMoveSchema } from '../../lib/admin-schemas';
import { moveAsStaff } from '../admin/booking-changes.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { timesFreed } from '../times-changed.server';

export const moveBooked = adminAction({
  item: 'booked slot',
  body: staffMoveSchema,
  run: async ({ db, session, ctx, params: { id }, body }) => {
    // Same guard as every booking; 409 slot-unavailable with its reason when the time cannot be taken.
    // The message goes to the patient only: sealed in the outbox, never audited or logged.
    // A closed day (a public holiday) only with `confirm_holiday` (docs/decisions/039-public-holidays.md).
    const moved = await moveAsStaff(
      db,
      ctx,
      session,
      id,
      { date: body.appointment_date, time: body.appointment_time },
      { message: body.message, confirm: body.confirm },
      body.confirm_holiday === true,
    );
    // The old time is free: the waitlist is asked (docs/decisions/032).
    timesFreed(ctx, moved.booking.appointment_type_id);
    return json(moved);
  },
});

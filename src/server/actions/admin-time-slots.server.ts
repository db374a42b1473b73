/** /api/admin/time-slots: the weekly time windows, listed and created. */
import { newTimeWindowsSchema } from '../../lib/admin-schemas';
import { createTimeWindows, listTimeWindows } from '../admin/time-windows.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { recordingFreedTimes } from '../waitlist/free-times.server';
import { timesFreed } from '../times-changed.server';

export const listWindows = adminAction({ run: async ({ db }) => json(await listTimeWindows(db)) });

export const createWindows = adminAction({
  body: newTimeWindowsSchema,
  run: async ({ db, session, ctx, body: input }) => {
    const rows = await audited(db, session, { action: 'create', entity: 'time-window', label: auditLabel.window }, (tx) =>
      recordingFreedTimes(tx, { typeId: input.appointment_type_id }, () => createTimeWindows(tx, input)),
    );
    // A new window offers new times: the waitlist is asked (docs/decisions/032).
    timesFreed(ctx, input.appointment_type_id);
    // days_of_week (several weekdays in one step) answers every row; day_of_week its one row, as before.
    return json(input.several ? rows : rows[0], { status: 201 });
  },
});

/** /api/admin/time-slots/:id: one time window changed or deleted. */
import { timeWindowSchema } from '../../lib/admin-schemas';
import { deleteTimeWindow, updateTimeWindow } from '../admin/time-windows.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { recordingFreedTimes } from '../waitlist/free-times.server';
import { timesFreed, timesTaken } from '../times-changed.server';

export const updateWindow = adminAction({
  item: 'time window',
  body: timeWindowSchema,
  run: async ({ db, session, ctx, params: { id }, body }) => {
    const saved = await audited(db, session, { action: 'update', entity: 'time-window', entityId: id, label: auditLabel.window }, (tx) =>
      // A changed window may free times of either type it belongs to (docs/decisions/038-waitlist-offers-for-freed-times.md).
      recordingFreedTimes(tx, {}, () => updateTimeWindow(tx, id, body)),
    );
    timesFreed(ctx, saved.appointment_type_id);
    return json(saved);
  },
});

export const deleteWindow = adminAction({
  item: 'time window',
  run: async ({ db, session, ctx, params: { id } }) => {
    const deleted = await audited(db, session, { action: 'delete', entity: 'time-window', entityId: id, label: auditLabel.window }, (tx) => deleteTimeWindow(tx, id));
    // Its times are gone.
    timesTaken(ctx, deleted.appointment_type_id);
    return new Response(null, { status: 204 });
  },
});

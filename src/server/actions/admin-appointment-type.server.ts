/** /api/admin/appointment-types/:id: one consultation type, changed or deleted. */
import { appointmentTypeSchema } from '../../lib/admin-schemas';
import { deleteAppointmentType, updateAppointmentType } from '../admin/appointment-types.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { recordingFreedTimes } from '../waitlist/free-times.server';
import { timesFreed, timesTaken } from '../times-changed.server';

export const updateType = adminAction({
  item: 'consultation type',
  body: appointmentTypeSchema,
  run: async ({ db, session, ctx, params: { id }, body }) => {
    const saved = await audited(db, session, { action: 'update', entity: 'appointment-type', entityId: id, label: auditLabel.type }, (tx) =>
      // More seats, a type back online, other start times: what it frees is noted for the waitlist (docs/decisions/038-waitlist-offers-for-freed-times.md).
      recordingFreedTimes(tx, { typeId: id }, () => updateAppointmentType(tx, id, body)),
    );
    // A raised capacity (or a type resumed online) frees seats: the waitlist is asked (docs/decisions/032).
    timesFreed(ctx, id);
    return json(saved);
  },
});

export const deleteType = adminAction({
  item: 'consultation type',
  run: async ({ db, session, ctx, params: { id } }) => {
    await audited(db, session, { action: 'delete', entity: 'appointment-type', entityId: id, label: auditLabel.type }, (tx) => deleteAppointmentType(tx, id));
    timesTaken(ctx, id);
    return new Response(null, { status: 204 });
  },
});

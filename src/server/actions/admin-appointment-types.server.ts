/** /api/admin/appointment-types: the consultation types, listed and created. */
import { appointmentTypeSchema } from '../../lib/admin-schemas';
import { createAppointmentType, listAdminAppointmentTypes } from '../admin/appointment-types.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const listTypes = adminAction({ run: async ({ db }) => json(await listAdminAppointmentTypes(db)) });

export const createType = adminAction({
  body: appointmentTypeSchema,
  run: async ({ db, session, body }) =>
    json(await audited(db, session, { action: 'create', entity: 'appointment-type', label: auditLabel.type }, (tx) => createAppointmentType(tx, body)), { status: 201 }),
});

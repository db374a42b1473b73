/** /api/admin/booked-slots/:id/informed: "Patient erreicht" (src/server/admin/informed.server.ts). */
import { markPatientInformed } from '../admin/informed.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const markInformed = adminAction({
  item: 'booked slot',
  run: async ({ db, session, params: { id } }) =>
    json(await audited(db, session, { action: 'informed', entity: 'booked-slot', entityId: id, label: auditLabel.booking }, (tx) => markPatientInformed(tx, id, session))),
});

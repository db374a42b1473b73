import { getDb } from '../../db/client';
import { appointmentTypeSchema } from '../../src/lib/admin-schemas';
import { deleteAppointmentType, updateAppointmentType } from '../../src/server/admin/appointment-types.server';
import { itemId } from '../../src/server/admin/shared.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'consultation type');
    const input = parseInput(appointmentTypeSchema, await readJson(req));
    const saved = await audited(db, session, { action: 'update', entity: 'appointment-type', entityId: id, label: auditLabel.type }, (tx) => updateAppointmentType(tx, id, input));
    // A raised capacity (or a type resumed online) frees seats: the waitlist is asked (docs/decisions/032).
    offerAfterResponse(ctx, id);
    return json(saved);
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'consultation type');
    await audited(db, session, { action: 'delete', entity: 'appointment-type', entityId: id, label: auditLabel.type }, (tx) => deleteAppointmentType(tx, id));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/appointment-types/:id' };

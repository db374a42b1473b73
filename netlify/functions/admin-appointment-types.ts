import { getDb } from '../../db/client';
import { appointmentTypeSchema } from '../../src/lib/admin-schemas';
import { createAppointmentType, listAdminAppointmentTypes } from '../../src/server/admin/appointment-types.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listAdminAppointmentTypes(db));
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(appointmentTypeSchema, await readJson(req));
    return json(await audited(db, session, { action: 'create', entity: 'appointment-type', label: auditLabel.type }, (tx) => createAppointmentType(tx, input)), { status: 201 });
  },
});

export const config = { path: '/api/admin/appointment-types' };

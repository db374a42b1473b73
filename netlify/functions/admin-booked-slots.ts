import { getDb } from '../../db/client';
import { bookedSlotsQuerySchema, staffBookingSchema } from '../../src/lib/admin-schemas';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { createStaffBooking, listBookedSlots } from '../../src/server/admin/booked-slots.server';
import { withPatientLanguage } from '../../src/server/admin/patient-language.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, queryOf, readJson, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const rows = await listBookedSlots(db, parseInput(bookedSlotsQuerySchema, queryOf(req)));
    // Each row names the language of the patient's emails (null: none goes), for "Absagen" and "Verschieben".
    return json(await withPatientLanguage(db, rows, await dataKeyRingIfAny()));
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(staffBookingSchema, await readJson(req));
    // A phone booking: same rules and capacity guarantee as online, no patient data; 409 slot-unavailable when refused.
    return json(await audited(db, session, { action: 'create', entity: 'booked-slot', label: auditLabel.booking }, (tx) => createStaffBooking(tx, input)), { status: 201 });
  },
});

export const config = { path: '/api/admin/booked-slots' };

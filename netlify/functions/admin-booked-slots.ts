import { getDb } from '../../db/client';
import { bookedSlotsQuerySchema, staffBookingSchema } from '../../src/lib/admin-schemas';
import { dataKeyRing, dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { createStaffBooking, listBookedSlots, notifyStaffBooking } from '../../src/server/admin/booked-slots.server';
import { auditReveal, viewLabel } from '../../src/server/admin/patient-details.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, queryOf, readJson, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const { view = 'booked-list', ...range } = parseInput(bookedSlotsQuerySchema, queryOf(req));
    const rows = await listBookedSlots(db, range, await dataKeyRingIfAny());
    // One audit row per answer that shows names: the view and the count, never a value (docs/decisions/025).
    const shown = rows.filter((r) => r.patient !== null).length;
    await auditReveal(db, session, view, viewLabel(view, range, shown), shown);
    // Each row names the language of the patient's emails (null: none goes, staff call), for "Absagen" and "Verschieben".
    return json(rows.map((r) => ({ ...r, language: r.status === 'booked' && r.patient?.email ? r.patient.language : null })));
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(staffBookingSchema, await readJson(req));
    // The caller's details are sealed like an online booking's: without a key, 503 not-configured before anything is stored.
    const keys = await dataKeyRing();
    // Same rules and capacity guarantee as online; 409 slot-unavailable when refused.
    const booked = await audited(db, session, { action: 'create', entity: 'booked-slot', label: auditLabel.booking }, (tx) => createStaffBooking(tx, input, keys));
    return json(await notifyStaffBooking(db, booked), { status: 201 });
  },
});

export const config = { path: '/api/admin/booked-slots' };

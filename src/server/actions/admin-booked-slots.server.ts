/** /api/admin/booked-slots: the day list, week view and booked list; a booking by phone. */
import { bookedSlotsQuerySchema } from '../../lib/admin-schemas';
import { staffBookingSchema } from '../../lib/staff-booking-schema';
import { createStaffBooking, listBookedSlots } from '../admin/booked-slots.server';
import { auditReveal, viewLabel } from '../admin/patient-details.server';
import { dataKeyRing, dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { assertSmsNumber } from '../sms/numbers.server';
import { timesTaken } from '../times-changed.server';

export const listBooked = adminAction({
  query: bookedSlotsQuerySchema,
  run: async ({ db, session, query: { view = 'booked-list', ...range } }) => {
    const rows = await listBookedSlots(db, range, await dataKeyRingIfAny());
    // One audit row per answer that shows names: the view and the count, never a value (docs/decisions/025).
    const shown = rows.filter((r) => r.patient !== null).length;
    await auditReveal(db, session, view, viewLabel(view, range, shown), shown);
    // Each row names the language of the patient's emails (null: none goes, staff call), for "Absagen" and "Verschieben".
    return json(rows.map((r) => ({ ...r, language: r.status === 'booked' && r.patient?.email ? r.patient.language : null })));
  },
});

export const bookByPhone = adminAction({
  body: staffBookingSchema,
  run: async ({ db, session, ctx, body }) => {
    // "SMS an diese Nummer erlaubt" only for a mobile number: 400 phone-not-mobile naming `phone`, before anything is stored.
    if (body.sms) await assertSmsNumber(body.phone, 'admin');
    // The caller's details are sealed like an online booking's: without a key, 503 not-configured before anything is stored.
    const keys = await dataKeyRing();
    // Same rules and capacity guarantee as online; 409 slot-unavailable when refused.
    const booked = await audited(db, session, { action: 'create', entity: 'booked-slot', label: auditLabel.booking }, (tx) => createStaffBooking(tx, body, keys));
    deliverAfterResponse(ctx);
    timesTaken(ctx, body.appointment_type_id);
    const { created: _created, ...row } = booked;
    return json(row, { status: 201 });
  },
});

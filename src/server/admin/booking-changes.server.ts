/**
 * The HTTP side of staff's "Absagen" and "Verschieben", shared by their
 * functions: the change with its audit row and the patient's email (queued)
 * in one transaction, the email sent after the answer (docs/decisions/035).
 */
import type { Database } from '../../../db/client';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { auditLabel } from '../audit-labels.server';
import { audited, type AuditActor } from '../audit.server';
import { hhmm } from '../bookings/shared.server';
import type { MovedBooking } from '../bookings/move.server';
import { staffCancel, staffMove, type PracticeCancelled, type StaffMessage } from '../bookings/staff.server';
import { deliverAfterResponse } from '../email/delivery.server';
import type { RequestContext } from '../http.server';

/**
 * The number staff call when no email can reach the patient (docs/decisions/025): only then, only in the
 * staff's own answer (no-store), null when none is known (sealed before it was kept, or unreadable).
 */
export const phoneToCall = (emailed: boolean, contact: { phone: string } | null) => (emailed ? null : contact?.phone || null);

/** 200 `{ id, reference, patient_notified, patient_phone }` (POST …/:id/cancel, DELETE …/:id). */
export async function cancelAsStaff(db: Database, ctx: RequestContext, actor: AuditActor, id: string, message: StaffMessage = {}) {
  const keys = await dataKeyRingIfAny();
  const cancelled = await audited(db, actor, { action: 'cancel', entity: 'booked-slot', entityId: id, label: (c: PracticeCancelled) => auditLabel.booking(c.booking) }, (tx) =>
    staffCancel(tx, id, keys, message),
  );
  deliverAfterResponse(ctx);
  return { id, reference: cancelled.booking.reference, patient_notified: cancelled.emailed, patient_phone: phoneToCall(cancelled.emailed, cancelled.contact) };
}

/** 200 `{ booking, patient_notified, patient_phone }` (POST …/:id/move). */
export async function moveAsStaff(
  db: Database,
  ctx: RequestContext,
  actor: AuditActor,
  id: string,
  target: { date: string; time: string },
  message: StaffMessage = {},
  confirmHoliday = false,
) {
  const keys = await dataKeyRingIfAny();
  // Labelled with the new time: the entry reads "reference (type, new date time)".
  const label = (m: MovedBooking) => auditLabel.booking({ ...m.booking, type_name: m.type.name });
  const moved = await audited(db, actor, { action: 'move', entity: 'booked-slot', entityId: id, label }, (tx) => staffMove(tx, id, target, keys, message, new Date(), confirmHoliday));
  deliverAfterResponse(ctx);
  return {
    booking: { ...moved.booking, appointment_time: hhmm(moved.booking.appointment_time) },
    patient_notified: moved.emailed,
    patient_phone: phoneToCall(moved.emailed, moved.contact),
  };
}

/**
 * "Patient erreicht" (PUT /api/admin/booked-slots/:id/informed,
 * docs/decisions/035): staff have told the patient by phone of a change no
 * email reached them with (none could be sent, or it bounced or finally
 * failed). The booking, live or cancelled by the practice, no longer asks
 * for a call. Audited by the handler; the row is locked while it is
 * written, so it never races a move or a cancellation into a lost mark.
 * The row keeps who marked it and when (the staff account's email, never
 * patient data), so every list shows it after a reload too
 * (docs/decisions/041-staff-messages-devices-printouts.md).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { hhmm, rowsOf } from '../bookings/shared.server';
import { notFound } from './shared.server';

export interface InformedDto {
  id: string;
  reference: string;
  type_name: string;
  appointment_date: string;
  appointment_time: string;
  status: 'booked' | 'cancelled_by_practice';
  patient_notified: true;
  needs_call: false;
  informed: InformedMark;
}

/** "Patient erreicht" by whom (a staff account's email) and when (ISO). */
export interface InformedMark {
  by: string;
  at: string;
}

export async function markPatientInformed(db: Database, id: string, actor: { user: { email: string } }, now: Date = new Date()): Promise<InformedDto> {
  const at = now.toISOString();
  const [live] = rowsOf<Omit<InformedDto, 'status' | 'patient_notified' | 'needs_call'>>(
    await db.execute(sql`
      update booked_slots b set patient_notified = true, informed_at = ${at}::timestamptz, informed_by = ${actor.user.email} from appointment_types t
      where b.id = ${id}::uuid and t.id = b.appointment_type_id
      returning b.id, b.reference, t.name as type_name, b.appointment_date::text as appointment_date, b.appointment_time::text as appointment_time`),
  );
  const [cancelled] = live
    ? []
    : rowsOf<Omit<InformedDto, 'status' | 'patient_notified' | 'needs_call'>>(
        await db.execute(sql`
          update cancelled_bookings c set patient_notified = true, informed_at = ${at}::timestamptz, informed_by = ${actor.user.email} from appointment_types t
          where c.id = ${id}::uuid and c.cancelled_by = 'practice' and t.id = c.appointment_type_id
          returning c.id, c.reference, t.name as type_name, c.appointment_date::text as appointment_date, c.appointment_time::text as appointment_time`),
      );
  const row = live ?? cancelled;
  if (!row) throw notFound('booked slot');
  return { ...row, appointment_time: hhmm(row.appointment_time), status: live ? 'booked' : 'cancelled_by_practice', patient_notified: true, needs_call: false, informed: { by: actor.user.email, at } };
}

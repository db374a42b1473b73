/**
 * When a message does not arrive (docs/decisions/035-email-outbox.md,
 * 043-sms-second-channel.md): a patient's email that bounced for real or
 * finally failed sends the same notice by SMS where the patient agreed to
 * SMS at a mobile number (the plan sealed with the email) and SMS is
 * offered; only when no other channel is left does the booking ask staff
 * to call ("bitte anrufen"). A failed SMS asks for the call directly. The
 * practice's own message marks its booking "Praxis nicht benachrichtigt".
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import type { KeyRing } from '../appointment-contact/keys.server';
import { enqueueSms, planFromJson } from '../sms/queue.server';
import { smsOffered } from '../sms/sms.server';
import { openFallbackSms, type MailAudience } from './queue.server';

/**
 * A patient's message about a booking that will not arrive: staff are asked
 * to call (docs/decisions/035), and an earlier "Patient erreicht" no longer
 * stands (docs/decisions/041).
 */
export async function markBookingUndelivered(db: Executor, bookingId: string, audience: MailAudience): Promise<void> {
  if (audience === 'patient') {
    await db.execute(sql`update booked_slots set patient_notified = false, informed_at = null, informed_by = null where id = ${bookingId}::uuid`);
    await db.execute(sql`update cancelled_bookings set patient_notified = false, informed_at = null, informed_by = null where id = ${bookingId}::uuid`);
  } else if (audience === 'practice') {
    await db.execute(sql`update booked_slots set practice_notified = false where id = ${bookingId}::uuid`);
  }
}

export interface UndeliveredRow {
  id: string;
  channel: 'email' | 'sms';
  audience: MailAudience;
  booking_id: string | null;
  key_id: string | null;
  sealed: string | null;
}

/**
 * In the transaction that records a message as not delivered: queue the
 * SMS it carries (answers 'sms'), or mark its booking (answers 'call').
 */
export async function emailUndelivered(tx: Executor, row: UndeliveredRow, keys: KeyRing | null, now: Date): Promise<'sms' | 'call'> {
  if (row.channel === 'email' && row.audience === 'patient' && keys && row.key_id && row.sealed && smsOffered()) {
    let plan = null;
    try {
      plan = openFallbackSms({ id: row.id, keyId: row.key_id, sealed: row.sealed }, keys);
    } catch (error) {
      console.warn(`email ${row.id}: its SMS could not be read (${(error as Error)?.name ?? 'unknown'})`);
    }
    if (plan) {
      await enqueueSms(tx, [planFromJson(plan)], keys, now, { fallbackOf: row.id });
      console.info(`email ${row.id} not delivered: its notice goes by SMS`);
      return 'sms';
    }
  }
  if (row.booking_id) await markBookingUndelivered(tx, row.booking_id, row.audience);
  return 'call';
}

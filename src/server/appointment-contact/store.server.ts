/**
 * The appointment contact's rows (docs/architecture.md, Privacy): how a
 * booking writes its contact, how a move carries the reminder along, how a
 * cancellation reads it. The scheduled job (reminders and purge) is
 * job.server.ts.
 *
 * Lifetime of a row:
 * - written by the booking's own INSERT statement (`contactCte`), so a
 *   booking never exists without it and the booking stays at 2 round trips;
 * - read and deleted in the transaction that cancels the booking (patient or
 *   practice); the notice then goes from the values read;
 * - its reminder follows every move (`followMove`);
 * - deleted by the job at the latest at the end of the appointment's
 *   Berlin day (docs/decisions/026), also when no configured key opens it.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { appointmentContacts } from '../../../db/schema';
import { reminderSendAt } from '../../lib/reminder-time';
import type { KeyRing } from './keys.server';
import { withdrawQueuedReminder } from '../email/queue.server';
import { open, seal, type ContactSecret, type Sealed } from './seal.server';

/** The reminder's send time for an appointment, or null when none is wanted or it would already be due. */
export function remindAtFor(wanted: boolean, date: string, time: string, now: Date): Date | null {
  if (!wanted) return null;
  const at = reminderSendAt(date, time);
  return at.getTime() > now.getTime() ? at : null;
}

/** The `details` of every contact sealed now: names, birth date, phone, email, language, token (docs/decisions/025). */
export const CONTACT_DETAILS = 2;

/** What a new online booking hands to its INSERT statement: the contact, sealed for the booking's id. */
export interface NewContact {
  sealed: Sealed;
  reminder: boolean;
  remindAt: Date | null;
}

export function newContact(
  bookingId: string,
  secret: ContactSecret,
  keys: KeyRing,
  slot: { date: string; time: string; reminder: boolean },
  now: Date,
): NewContact {
  return {
    sealed: seal(secret, bookingId, keys),
    reminder: slot.reminder,
    remindAt: remindAtFor(slot.reminder, slot.date, slot.time, now),
  };
}

/** The CTE that writes the contact of the row the `booked` CTE inserted (nothing when nothing was booked). */
export function contactCte(contact: NewContact): SQL {
  return sql`insert into appointment_contacts (booking_id, key_id, sealed, reminder, remind_at, details)
      select id, ${contact.sealed.keyId}, ${contact.sealed.sealed}, ${contact.reminder}, ${contact.remindAt?.toISOString() ?? null}::timestamptz, ${CONTACT_DETAILS}
      from booked`;
}

/**
 * A moved booking's reminder follows the new time, even when one was
 * already sent for the old time: due again 24 hours before the
 * new time, or none when that has passed; one queued for the old time and
 * not yet sent is withdrawn (docs/decisions/035). Called in the move's transaction,
 * after the booking row is locked: the reminder job locks the booking row
 * too, so it never sends for a time the move has just replaced.
 */
export async function followMove(db: Executor, bookingId: string, date: string, time: string, now: Date): Promise<void> {
  await withdrawQueuedReminder(db, bookingId);
  const at = remindAtFor(true, date, time, now);
  await db
    .update(appointmentContacts)
    .set({ remindAt: at ? sql`case when ${appointmentContacts.reminder} then ${at.toISOString()}::timestamptz end` : null })
    .where(eq(appointmentContacts.bookingId, bookingId));
}

/** The sealed contact of a booking (locked with it by the caller's transaction), or null (phone booking, or booked before contacts existed). */
export async function sealedContact(db: Executor, bookingId: string): Promise<Sealed | null> {
  const [row] = await db
    .select({ keyId: appointmentContacts.keyId, sealed: appointmentContacts.sealed })
    .from(appointmentContacts)
    .where(eq(appointmentContacts.bookingId, bookingId));
  return row ?? null;
}

/**
 * Opens a contact, or null when it cannot be opened (no key configured, a
 * key since removed, a damaged value): the caller then reports that the
 * patient was not told. Logged by kind only, never a value.
 */
export function openContact(sealed: Sealed | null, bookingId: string, keys: KeyRing | null): ContactSecret | null {
  if (!sealed) return null;
  try {
    if (!keys) throw new Error('no key configured');
    return open(sealed, bookingId, keys);
  } catch (error) {
    console.warn(`appointment contact not opened: ${(error as Error)?.name ?? 'unknown'}`);
    return null;
  }
}

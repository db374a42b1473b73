/**
 * The reminders table (DESIGN.md, Reminders): what a row holds and when it
 * is made, moved and deleted. The job that sends rows is job.server.ts.
 *
 * Lifetime of a row:
 * - made inside the booking's transaction (`insertReminder`), only when the
 *   patient ticked the box and the send time still lies ahead (a booking
 *   for the next 24 hours already got its confirmation just now);
 * - deleted with its booking (cancelled or released) by the foreign key's
 *   ON DELETE CASCADE;
 * - moved with its booking (`moveReminder`, for rescheduling);
 * - deleted by the job once sent, or unsent once the appointment has begun.
 */
import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client';
import { reminders } from '../../../db/schema';
import { reminderSendAt } from '../../lib/reminder-time';
import type { KeyRing } from './keys.server';
import { seal, type ReminderSecret } from './seal.server';

type Executor = Database | Transaction;

export interface NewReminder {
  bookingId: string;
  date: string;
  time: string;
  secret: ReminderSecret;
  keys: KeyRing;
}

/** Stores the sealed reminder of a new booking; false when its send time has already passed. */
export async function insertReminder(db: Executor, reminder: NewReminder, now: Date = new Date()): Promise<boolean> {
  const sendAt = reminderSendAt(reminder.date, reminder.time);
  if (sendAt.getTime() <= now.getTime()) return false;
  const { keyId, sealed } = seal(reminder.secret, reminder.bookingId, reminder.keys);
  await db.insert(reminders).values({ bookingId: reminder.bookingId, sendAt, keyId, sealed });
  return true;
}

/**
 * A rescheduled booking's reminder follows the new time (the reschedule
 * calls this in its transaction). When the new send time has already
 * passed, the row is deleted, as no reminder would be made for a new
 * booking at that time. Answers what happened.
 */
export async function moveReminder(
  db: Executor,
  bookingId: string,
  newDate: string,
  newTime: string,
  now: Date = new Date(),
): Promise<'moved' | 'deleted' | 'none'> {
  const sendAt = reminderSendAt(newDate, newTime);
  if (sendAt.getTime() <= now.getTime()) {
    const gone = await db.delete(reminders).where(eq(reminders.bookingId, bookingId)).returning({ id: reminders.id });
    return gone.length ? 'deleted' : 'none';
  }
  const moved = await db.update(reminders).set({ sendAt }).where(eq(reminders.bookingId, bookingId)).returning({ id: reminders.id });
  return moved.length ? 'moved' : 'none';
}

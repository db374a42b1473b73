/**
 * When an appointment's reminder is sent. Pure, so the server's reminder
 * store and the wizard's success screen (which says whether a reminder will
 * come) agree.
 */
import { addDaysToDate, berlinInstant } from './berlin-time';

const DAY_MS = 24 * 3_600_000;

/**
 * When to remind: the same Berlin wall-clock time on the day before, so a
 * clock change in between shifts nothing the patient sees. Where that wall
 * time does not exist (the skipped spring hour), exactly 24 hours before.
 */
export function reminderSendAt(date: string, time: string): Date {
  const dayBefore = berlinInstant(addDaysToDate(date, -1), time);
  if (dayBefore) return dayBefore;
  const start = berlinInstant(date, time);
  if (!start) throw new RangeError('the appointment time does not exist in Berlin');
  return new Date(start.getTime() - DAY_MS);
}

/** A reminder for this appointment would still be sent: its send time lies ahead. */
export function reminderStillAhead(date: string, time: string, now: Date = new Date()): boolean {
  return reminderSendAt(date, time).getTime() > now.getTime();
}

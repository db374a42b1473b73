/**
 * The patient's own booking, cancellation and move, each a whole use case:
 * the rules and limits, the change in the database with the emails it
 * queues (sent after the answer, docs/decisions/035) and the waitlist offer
 * of a freed seat. The staff's twins live in
 * staff.server.ts and src/server/admin/booking-changes.server.ts.
 */
import type { Database } from '../../../db/client';
import type { BookingRequest } from '../../lib/booking-request-schema';
import type { rescheduleRequestSchema } from '../../lib/booking-schema';
import { AppError } from '../../lib/errors';
import type * as z from '../../lib/zod';
import { dataKeyRing, dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { bookingEmails, patientNoticeEmail, practiceCancellationEmail, practiceRescheduleEmail, queuedOutcome } from '../email/senders.server';
import { readEnv } from '../env.server';
import type { RequestContext } from '../http.server';
import { bookingLimits, forgetHit, moveLimits, takeRateLimit } from '../rate-limit.server';
import { timesFreed, timesTaken } from '../times-changed.server';
import { bookingForCancellation, cancelBooking } from './cancel.server';
import { withCurrentTimes } from './availability.server';
import { createBooking } from './create.server';
import type { BookingView } from './lookup.server';
import { moveNoticeEmail, rescheduleBooking } from './move.server';
import { confirmationSms } from '../sms/notices.server';
import { smsConsent } from '../sms/numbers.server';

/**
 * An online booking: limits, the sealed contact, the booking and its two
 * emails (the patient's confirmation, the practice's notice) queued by the
 * booking's own statement, sent right after the answer
 * (docs/decisions/035): the answer never waits for the mail service.
 */
export async function bookOnline(db: Database, ctx: RequestContext, body: BookingRequest) {
  // SMS only to a mobile number: 400 phone-not-mobile naming `phone`, before anything is counted or stored.
  const sms = await smsConsent(body.sms, body.phone);
  const limits = bookingLimits({ clientAddress: ctx.ip, recipient: body.email }, readEnv());
  // Every online booking keeps its sealed contact: without a key, 503 not-configured and nothing is stored.
  const contact = {
    secret: {
      email: body.email,
      firstName: body.first_name,
      lastName: body.last_name,
      language: body.language,
      birthDate: body.birth_date,
      phone: body.phone,
      ...(sms ? { sms: true } : {}),
    },
    keys: await dataKeyRing(),
    reminder: body.reminder === true,
  };
  // Over a limit: 429 from createBooking, nothing stored, nothing queued. A time taken meanwhile: 409 with the date's current times.
  const created = await withCurrentTimes(db, body.appointment_type_id, body.appointment_date, () => createBooking(db, body, {
    limits,
    contact,
    emails: ({ id, reference, token, type }) => {
      const [confirmation, ...practice] = bookingEmails({
        bookingId: id,
        token: token!,
        reference,
        type,
        date: body.appointment_date,
        time: body.appointment_time,
        patient: body,
        language: body.language,
      });
      // The confirmation carries its SMS for when it does not arrive (docs/decisions/043-sms-second-channel.md).
      const fallback = confirmationSms({ contact: { ...contact.secret, token: token! }, bookingId: id, date: body.appointment_date, time: body.appointment_time });
      return [{ ...confirmation!, sms: fallback }, ...practice];
    },
  }));
  deliverAfterResponse(ctx);
  // A seat taken: the CDN's copies of the type's availability go (docs/decisions/044).
  timesTaken(ctx, body.appointment_type_id);
  const { source: _source, ...booking } = created.booking;
  return { booking, email: queuedOutcome(body.language) };
}

/** What the cancellation page shows of the appointment a link points to. */
export async function appointmentToCancel(db: Database, token: string) {
  const b: BookingView = await bookingForCancellation(db, token);
  return {
    appointment_type_id: b.appointment_type_id,
    type_name: b.type_name,
    type_name_en: b.type_name_en,
    appointment_date: b.appointment_date,
    appointment_time: b.appointment_time,
    reference: b.reference,
    price_cents: b.price_cents,
  };
}

/**
 * The patient cancels through the link: the booking goes, its notices are
 * queued with it, the waitlist is asked. Answers what was cancelled (the
 * page without JavaScript says it).
 */
export async function cancelByPatient(db: Database, ctx: RequestContext, token: string): Promise<BookingView> {
  const { booking } = await cancelBooking(db, token, await dataKeyRingIfAny(), new Date(), ({ booking, contact }) => {
    const type = { name: booking.type_name, nameEn: booking.type_name_en, slotDurationMinutes: booking.slot_duration_minutes };
    const slot = { date: booking.appointment_date, time: booking.appointment_time };
    // The patient's confirmation with METHOD:CANCEL, and the practice's notice (German: type, date, time, reference).
    const patient = contact
      ? patientNoticeEmail({ kind: 'cancelled', contact, bookingId: booking.id, reference: booking.reference, type, ...slot, sequence: booking.sequence + 1 })
      : null;
    return [...(patient ? [patient] : []), practiceCancellationEmail({ bookingId: booking.id, type, ...slot, reference: booking.reference })];
  });
  deliverAfterResponse(ctx);
  // The seat is free: the waitlist is asked (docs/decisions/032).
  timesFreed(ctx, booking.appointment_type_id);
  return booking;
}

const TOO_MANY_MOVES = {
  de: 'Dieser Termin wurde zu oft verschoben. Bitte versuchen Sie es später erneut oder rufen Sie uns an.',
  en: 'This appointment has been moved too often. Please try again later or call us.',
} as const;

/** The patient moves through the link: limits first, then one transaction with its notices, then the waitlist offer. */
export async function moveByPatient(db: Database, ctx: RequestContext, body: z.output<typeof rescheduleRequestSchema>) {
  const language = body.language === 'en' ? 'en' : 'de';
  // Per booking and per client, before anything moves: a refused move sends the practice no notice.
  const limits = moveLimits({ token: body.token, clientAddress: ctx.ip }, readEnv());
  const now = new Date();
  await takeRateLimit(db, [limits.booking, limits.client], now, TOO_MANY_MOVES[language]);
  // One transaction: the new seat taken, the old one freed, the reminder moved, the patient's confirmation
  // (new time, updated .ics; none without a contact) and the practice's notice queued (or nothing at all).
  const moved = await rescheduleBooking(db, body, await dataKeyRingIfAny(), now, (moved) => {
    const patient = moveNoticeEmail('moved', moved);
    const practice = practiceRescheduleEmail({
      bookingId: moved.booking.id,
      reference: moved.booking.reference,
      type: moved.type,
      old: moved.old,
      moved: { date: moved.booking.appointment_date, time: moved.booking.appointment_time },
      language,
      via: 'link',
    });
    return [...(patient ? [patient] : []), practice];
  }).catch(async (error: unknown) => {
    // Refused by the booking rules (a time taken meanwhile): it moved nothing, so it costs the booking nothing.
    if (error instanceof AppError && error.status === 409) await forgetHit(db, limits.booking, now);
    throw error;
  });
  deliverAfterResponse(ctx);
  // The old time is free: the waitlist is asked (docs/decisions/032).
  timesFreed(ctx, moved.booking.appointment_type_id);
  return { booking: { ...moved.booking, sequence: moved.sequence }, email: queuedOutcome(language) };
}

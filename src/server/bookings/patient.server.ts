/**
 * The patient's own booking, cancellation and move, each a whole use case:
 * the rules and limits, the change in the database, the emails it sends and
 * the waitlist offer of a freed seat. The staff's twins live in
 * staff.server.ts and src/server/admin/booking-changes.server.ts.
 */
import type { Database } from '../../../db/client';
import { useTranslations } from '../../i18n/i18n';
import type { z } from 'zod';
import type { BookingRequest, rescheduleRequestSchema } from '../../lib/booking-schema';
import { AppError } from '../../lib/errors';
import { dataKeyRing, dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { sendBookingEmails, sendCancellationNotice, sendPatientNotice, sendRescheduleEmail } from '../email/senders.server';
import { readEnv } from '../env.server';
import type { RequestContext } from '../http.server';
import { bookingLimits, forgetHit, moveLimits, takeRateLimit } from '../rate-limit.server';
import { offerAfterResponse } from '../waitlist/sweep.server';
import { bookingForCancellation, cancelBooking } from './cancel.server';
import { createBooking, markPracticeNotNotified } from './create.server';
import type { BookingView } from './lookup.server';
import { rescheduleBooking, sendMoveNotice } from './move.server';

/** An online booking: limits, the sealed contact, the booking, then the emails (which only report how they went). */
export async function bookOnline(db: Database, body: BookingRequest, clientAddress: string) {
  const limits = bookingLimits({ clientAddress, recipient: body.email }, readEnv());
  // Every online booking keeps its sealed contact: without a key, 503 not-configured and nothing is stored.
  const contact = {
    secret: {
      email: body.email,
      firstName: body.first_name,
      lastName: body.last_name,
      language: body.language,
      birthDate: body.birth_date,
      phone: body.phone,
    },
    keys: await dataKeyRing(),
    reminder: body.reminder === true,
  };
  // Over a limit: 429 from createBooking, nothing stored, nothing sent.
  const created = await createBooking(db, body, { limits, contact });
  // The booking stands once committed; emails only report how they went.
  const email = await sendBookingEmails({
    bookingId: created.booking.id,
    token: created.token!,
    reference: created.booking.reference,
    type: created.type,
    date: created.booking.appointment_date,
    time: created.booking.appointment_time,
    patient: body,
    language: body.language,
  });
  // The practice was not told (its email failed or email is not configured): mark the booking, ask the patient to call.
  if (email.practiceEmailError || email.error) await markPracticeNotNotified(db, created.booking.id);
  const { source: _source, ...booking } = created.booking;
  return { booking, email };
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

/** The patient cancels through the link: the booking goes, the notices follow, the waitlist is asked. */
export async function cancelByPatient(db: Database, ctx: RequestContext, token: string): Promise<void> {
  const { booking, contact } = await cancelBooking(db, token, await dataKeyRingIfAny());
  const type = { name: booking.type_name, nameEn: booking.type_name_en, slotDurationMinutes: booking.slot_duration_minutes };
  // The patient's confirmation with METHOD:CANCEL, and the practice's notice (German: type, date, time, reference);
  // neither undoes the cancellation when it fails.
  await Promise.all([
    contact
      ? sendPatientNotice({
          kind: 'cancelled',
          contact,
          bookingId: booking.id,
          reference: booking.reference,
          type,
          date: booking.appointment_date,
          time: booking.appointment_time,
          sequence: booking.sequence + 1,
        })
      : null,
    sendCancellationNotice({ type, date: booking.appointment_date, time: booking.appointment_time, reference: booking.reference }),
  ]);
  // The seat is free: the waitlist is asked (docs/decisions/032).
  offerAfterResponse(ctx, booking.appointment_type_id);
}

const TOO_MANY_MOVES = {
  de: 'Dieser Termin wurde zu oft verschoben. Bitte versuchen Sie es später erneut oder rufen Sie uns an.',
  en: 'This appointment has been moved too often. Please try again later or call us.',
} as const;

/** The patient moves through the link: limits first, one transaction, then the notices and the waitlist offer. */
export async function moveByPatient(db: Database, ctx: RequestContext, body: z.output<typeof rescheduleRequestSchema>) {
  const language = body.language === 'en' ? 'en' : 'de';
  // Per booking and per client, before anything moves: a refused move sends the practice no notice.
  const limits = moveLimits({ token: body.token, clientAddress: ctx.ip }, readEnv());
  const now = new Date();
  await takeRateLimit(db, [limits.booking, limits.client], now, TOO_MANY_MOVES[language]);
  // One transaction: the new seat taken, the old one freed, the reminder moved (or nothing at all).
  const moved = await rescheduleBooking(db, body, await dataKeyRingIfAny(), now).catch(async (error: unknown) => {
    // Refused by the booking rules (a time taken meanwhile): it moved nothing, so it costs the booking nothing.
    if (error instanceof AppError && error.status === 409) await forgetHit(db, limits.booking, now);
    throw error;
  });
  // The move stands once committed: the patient's confirmation (new time, updated .ics) and the
  // practice's notice only report how they went.
  const [patientSent, email] = await Promise.all([
    // Without a contact (booked before contacts existed) there is nobody to tell: not a failure.
    moved.contact ? sendMoveNotice('moved', moved) : true,
    sendRescheduleEmail({
      reference: moved.booking.reference,
      type: moved.type,
      old: moved.old,
      moved: { date: moved.booking.appointment_date, time: moved.booking.appointment_time },
      language,
      via: 'link',
    }),
  ]);
  // The old time is free: the waitlist is asked (docs/decisions/032).
  offerAfterResponse(ctx, moved.booking.appointment_type_id);
  const patientEmailError = useTranslations(language)('email.errors.patientFailed');
  return { booking: { ...moved.booking, sequence: moved.sequence }, email: patientSent ? email : { ...email, success: false, patientEmailError } };
}

/**
 * The patient's side of the waitlist as whole use cases (docs/decisions/032-waitlist.md):
 * joining (the entry, its confirmation and whatever already fits, after the
 * answer) and taking an offer (a move or a new booking, with its emails).
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentTypes } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import { waitlistWithBookingSchema, waitlistWithNewBookingSchema, waitlistWithoutBookingSchema } from '../../lib/waitlist-schema';
import { dataKeyRing, dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { configuredEmail, sendBookingEmails, sendRescheduleEmail } from '../email/senders.server';
import { markPracticeNotNotified } from '../bookings/create.server';
import { sendMoveNotice } from '../bookings/move.server';
import { afterResponse, parseInput, type RequestContext } from '../http.server';
import { joinedEmail } from '../email/messages/waitlist.server';
import { joinWaitlist, type JoinRequest } from './entries.server';
import { takeOffer } from './offers.server';
import { offerAfterResponse } from './sweep.server';

/** The request to join: with a booking's link token, with a booking just made (its id, from the success screen), or with the patient's details. */
export function joinRequestOf(raw: unknown): JoinRequest {
  const has = (field: string) => typeof raw === 'object' && raw !== null && field in raw;
  const body = (
    has('token')
      ? parseInput(waitlistWithBookingSchema, raw)
      : has('booking_id')
        ? parseInput(waitlistWithNewBookingSchema, raw)
        : parseInput(waitlistWithoutBookingSchema, raw)
  ) as JoinRequest;
  if (body.from > body.to) throw new AppError('invalid-input', '"to" lies before "from".', { to: ['waitlist.errors.rangeReversed'] });
  return body;
}

/** Joins the list; the confirmation with the link off the list, then whatever already fits: after the answer. */
export async function joinAsPatient(db: Database, ctx: RequestContext, body: JoinRequest): Promise<{ id: string }> {
  // Entries are sealed: without a key, 503 not-configured and nothing is stored.
  const entry = await joinWaitlist(db, body, { keys: await dataKeyRing(), clientAddress: ctx.ip });
  afterResponse(ctx, 'waitlist confirmation', async () => {
    const email = configuredEmail('waitlist confirmation');
    if (!email) return;
    const [type] = await db.select().from(appointmentTypes).where(eq(appointmentTypes.id, entry.typeId));
    if (type) await email.sender.send(joinedEmail(entry.secret, { from: entry.from, to: entry.to, type }, email.env.SITE_URL));
  });
  offerAfterResponse(ctx, entry.typeId);
  return { id: entry.id };
}

/** Takes an offer: a booking is moved (its emails before the answer) or a new one made (its emails after it). */
export async function takeOfferAsPatient(db: Database, ctx: RequestContext, token: string) {
  const taken = await takeOffer(db, token, await dataKeyRingIfAny());
  if (taken.kind === 'moved') {
    const { moved } = taken;
    // The move email with the updated .ics (same UID, higher SEQUENCE) and the practice's notice.
    await Promise.all([
      sendMoveNotice('moved', moved),
      sendRescheduleEmail({
        reference: moved.booking.reference,
        type: moved.type,
        old: moved.old,
        moved: { date: moved.booking.appointment_date, time: moved.booking.appointment_time },
        language: moved.contact?.language ?? 'de',
        via: 'waitlist',
      }),
    ]);
    // The old time is free now: the next patients on the list are asked.
    offerAfterResponse(ctx, moved.booking.appointment_type_id);
    return { booking: { ...moved.booking, sequence: moved.sequence } };
  }
  const { booking, secret } = taken;
  afterResponse(ctx, 'waitlist booking emails', async () => {
    const email = await sendBookingEmails({
      bookingId: booking.id,
      token: taken.token,
      reference: booking.reference,
      type: taken.type,
      date: booking.appointment_date,
      time: booking.appointment_time,
      patient: { first_name: secret.firstName, last_name: secret.lastName, birth_date: secret.birthDate ?? '', phone: secret.phone ?? '', email: secret.email },
      language: secret.language,
    });
    if (email.practiceEmailError || email.error) await markPracticeNotNotified(db, booking.id);
  });
  return { booking };
}

/**
 * The patient's side of the waitlist as whole use cases (docs/decisions/032-waitlist.md):
 * joining (the entry, its confirmation and whatever already fits, after the
 * answer) and taking an offer (a move or a new booking, with its emails).
 */
import type { Database } from '../../../db/client';
import { AppError } from '../../lib/errors';
import { waitlistWithBookingSchema, waitlistWithNewBookingSchema, waitlistWithoutBookingSchema } from '../../lib/waitlist-schema';
import { dataKeyRing, dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { parseInput, type RequestContext } from '../http.server';
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

/** Joins the list; its confirmation (with the link off the list) is queued with the entry; whatever already fits is offered after the answer. */
export async function joinAsPatient(db: Database, ctx: RequestContext, body: JoinRequest): Promise<{ id: string }> {
  // Entries are sealed: without a key, 503 not-configured and nothing is stored.
  const entry = await joinWaitlist(db, body, { keys: await dataKeyRing(), clientAddress: ctx.ip });
  deliverAfterResponse(ctx);
  offerAfterResponse(ctx, entry.typeId);
  return { id: entry.id };
}

/** Takes an offer: a booking is moved or a new one made, its emails queued with it and sent after the answer. */
export async function takeOfferAsPatient(db: Database, ctx: RequestContext, token: string) {
  const taken = await takeOffer(db, token, await dataKeyRingIfAny());
  if (taken.kind === 'moved') {
    const { moved } = taken;
    deliverAfterResponse(ctx);
    // The old time is free now: the next patients on the list are asked.
    offerAfterResponse(ctx, moved.booking.appointment_type_id);
    return { booking: { ...moved.booking, sequence: moved.sequence } };
  }
  deliverAfterResponse(ctx);
  return { booking: taken.booking };
}

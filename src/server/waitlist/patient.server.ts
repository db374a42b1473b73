/**
 * The patient's side of the waitlist as whole use cases (docs/decisions/032-waitlist.md,
 * docs/decisions/038-waitlist-offers-for-freed-times.md): what the form is
 * for, joining (the entry and its confirmation; the times free right now
 * in the answer, to book at once) and taking an offer or one of those times
 * (a move or a new booking, with its emails).
 */
import type { Database } from '../../../db/client';
import { AppError } from '../../lib/errors';
import { bookingFields } from '../../lib/booking-schema';
import { waitlistTokenSchema, waitlistWithBookingSchema, waitlistWithNewBookingSchema, waitlistWithoutBookingSchema } from '../../lib/waitlist-schema';
import * as z from '../../lib/zod';
import { dataKeyRing, dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { parseInput, type RequestContext } from '../http.server';
import { askContext, joinWaitlist, type JoinRequest } from './entries.server';
import { fittingFreeTimes, takeOffer, type NextTime } from './offers.server';
import { timesFreed, timesTaken } from '../times-changed.server';
import { smsOffered } from '../sms/sms.server';

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

/** At most this many free times in the join's answer. */
export const FREE_TIMES_SHOWN = 6;

/**
 * Joins the list; its confirmation (with the link off the list) is queued
 * with the entry. The answer carries the entry's token and the fitting
 * times free right now, to book at once: those are never offered by email
 * (they did not become free after the patient asked).
 */
export async function joinAsPatient(db: Database, ctx: RequestContext, body: JoinRequest): Promise<{ id: string; token: string; free_times: NextTime[] }> {
  // Entries are sealed: without a key, 503 not-configured and nothing is stored.
  const now = new Date();
  const entry = await joinWaitlist(db, body, { keys: await dataKeyRing(), clientAddress: ctx.ip, now });
  deliverAfterResponse(ctx);
  return { id: entry.id, token: entry.token, free_times: await fittingFreeTimes(db, entry.id, now, FREE_TIMES_SHOWN) };
}

const contextQuery = {
  token: z.object({ token: waitlistTokenSchema }),
  booking: z.object({ booking: waitlistWithNewBookingSchema.shape.booking_id }),
  type: z.object({ type: bookingFields.appointment_type_id }),
};

/**
 * GET /api/waitlist?token= | ?booking= | ?type=: the type and current
 * booking the form is for, and whether it may offer SMS (`sms`; docs/decisions/043-sms-second-channel.md).
 */
export async function formContext(db: Database, query: Record<string, string>) {
  const context =
    'token' in query
      ? await askContext(db, parseInput(contextQuery.token, { token: query.token }))
      : 'booking' in query
        ? await askContext(db, { booking_id: parseInput(contextQuery.booking, { booking: query.booking }).booking })
        : await askContext(db, { appointment_type_id: parseInput(contextQuery.type, { type: query.type }).type });
  return { ...context, sms: smsOffered() };
}

/** Takes an offer: a booking is moved or a new one made, its emails queued with it and sent after the answer. */
export async function takeOfferAsPatient(db: Database, ctx: RequestContext, body: { token: string; appointment_date?: string; appointment_time?: string }) {
  const requested = body.appointment_date && body.appointment_time ? { date: body.appointment_date, time: body.appointment_time } : undefined;
  const taken = await takeOffer(db, body.token, await dataKeyRingIfAny(), new Date(), requested);
  if (taken.kind === 'moved') {
    const { moved } = taken;
    deliverAfterResponse(ctx);
    // The old time is free now: the next patients on the list are asked.
    timesFreed(ctx, moved.booking.appointment_type_id);
    return { booking: { ...moved.booking, sequence: moved.sequence } };
  }
  deliverAfterResponse(ctx);
  // A seat taken: the CDN's copies of the type's availability go.
  timesTaken(ctx, taken.booking.appointment_type_id);
  return { booking: taken.booking };
}

import { getDb } from '../../db/client';
import { bookingRequestSchema, type BookingRequest } from '../../src/lib/booking-schema';
import { dataKeyRing } from '../../src/server/appointment-contact/keys.server';
import { sendBookingEmails } from '../../src/server/email/senders.server';
import { createBooking, markPracticeNotNotified } from '../../src/server/bookings/create.server';
import { readEnv } from '../../src/server/env.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';
import { bookingLimits } from '../../src/server/rate-limit.server';

export default route({
  POST: async (req, ctx) => {
    // Only the site's own pages may book (a foreign Origin is refused before the body is read).
    assertSameOrigin(req);
    const body = parseInput(bookingRequestSchema, await readJson(req)) as BookingRequest;
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
      },
      keys: await dataKeyRing(),
      reminder: body.reminder === true,
    };
    // Over a limit: 429 from createBooking, nothing stored, nothing sent.
    const created = await createBooking(await getDb(), body, { limits, contact });
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
    if (email.practiceEmailError || email.error) await markPracticeNotNotified(await getDb(), created.booking.id);
    const { source: _source, ...booking } = created.booking;
    return json({ booking, email }, { status: 201 });
  },
});

export const config = { path: '/api/bookings' };

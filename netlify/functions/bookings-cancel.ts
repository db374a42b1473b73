import { z } from 'zod';
import { getDb } from '../../db/client';
import { cancellationTokenSchema } from '../../src/lib/booking-schema';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { sendCancellationNotice } from '../../src/server/email/senders.server';
import { bookingForCancellation, cancelBooking } from '../../src/server/bookings/cancel.server';
import type { BookingView } from '../../src/server/bookings/lookup.server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { json, parseInput, queryOf, readJson, route } from '../../src/server/http.server';
import { sendPatientNotice } from '../../src/server/email/senders.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

const tokenInput = z.object({ token: cancellationTokenSchema });

const publicView = (b: BookingView) => ({
  appointment_type_id: b.appointment_type_id,
  type_name: b.type_name,
  type_name_en: b.type_name_en,
  appointment_date: b.appointment_date,
  appointment_time: b.appointment_time,
  reference: b.reference,
  price_cents: b.price_cents,
});

export default route({
  GET: async (req) => {
    const { token } = parseInput(tokenInput, queryOf(req));
    return json(publicView(await bookingForCancellation(await getDb(), token)));
  },
  POST: async (req, ctx) => {
    // Only the site's own pages may cancel (a foreign Origin is refused before the body is read).
    assertSameOrigin(req);
    const { token } = parseInput(tokenInput, await readJson(req));
    const { booking, contact } = await cancelBooking(await getDb(), token, await dataKeyRingIfAny());
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
    return json({ cancelled: true });
  },
});

export const config = { path: '/api/bookings/cancel' };

import { z } from 'zod';
import { getDb } from '../../db/client';
import { cancellationTokenSchema } from '../../src/lib/booking-schema';
import { sendCancellationNotice } from '../../src/server/booking-emails.server';
import { bookingForCancellation, cancelBooking, type BookingByToken } from '../../src/server/bookings.server';
import { json, parseInput, queryOf, readJson, route } from '../../src/server/http.server';

const tokenInput = z.object({ token: cancellationTokenSchema });

const publicView = (b: BookingByToken) => ({
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
  POST: async (req) => {
    const { token } = parseInput(tokenInput, await readJson(req));
    const cancelled = await cancelBooking(await getDb(), token);
    // The practice hears of it (German: type, date, time, reference); a failed notice never undoes the cancellation.
    await sendCancellationNotice({
      type: { name: cancelled.type_name, nameEn: cancelled.type_name_en },
      date: cancelled.appointment_date,
      time: cancelled.appointment_time,
      reference: cancelled.reference,
    });
    return json({ cancelled: true });
  },
});

export const config = { path: '/api/bookings/cancel' };

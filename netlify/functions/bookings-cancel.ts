import { z } from 'zod';
import { getDb } from '../../db/client';
import { cancellationTokenSchema } from '../../src/lib/booking-schema';
import { bookingForCancellation, cancelBooking, type BookingByToken } from '../../src/server/bookings.server';
import { json, parseInput, queryOf, readJson, route } from '../../src/server/http.server';

const tokenInput = z.object({ token: cancellationTokenSchema });

const publicView = (b: BookingByToken) => ({
  appointment_type_id: b.appointment_type_id,
  type_name: b.type_name,
  type_name_en: b.type_name_en,
  appointment_date: b.appointment_date,
  appointment_time: b.appointment_time,
});

export default route({
  GET: async (req) => {
    const { token } = parseInput(tokenInput, queryOf(req));
    return json(publicView(await bookingForCancellation(await getDb(), token)));
  },
  POST: async (req) => {
    const { token } = parseInput(tokenInput, await readJson(req));
    await cancelBooking(await getDb(), token);
    return json({ cancelled: true });
  },
});

export const config = { path: '/api/bookings/cancel' };

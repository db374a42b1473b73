import { getDb } from '../../db/client';
import { rescheduleRequestSchema } from '../../src/lib/booking-schema';
import { sendRescheduleEmail } from '../../src/server/booking-emails.server';
import { rescheduleBooking } from '../../src/server/bookings.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  POST: async (req) => {
    const body = parseInput(rescheduleRequestSchema, await readJson(req));
    const language = body.language === 'en' ? 'en' : 'de';
    // One transaction: the new seat taken, the old one freed, the reminder moved (or nothing at all).
    const moved = await rescheduleBooking(await getDb(), body);
    // The move stands once committed; the practice's notice only reports how it went.
    const email = await sendRescheduleEmail({
      reference: moved.booking.reference,
      type: moved.type,
      old: moved.old,
      moved: { date: moved.booking.appointment_date, time: moved.booking.appointment_time },
      language,
    });
    return json({ booking: moved.booking, email });
  },
});

export const config = { path: '/api/bookings/reschedule' };

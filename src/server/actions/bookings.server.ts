/** /api/bookings: the patient's online booking (src/server/bookings/patient.server.ts). */
import { bookingRequestSchema, type BookingRequest } from '../../lib/booking-request-schema';
import { bookOnline } from '../bookings/patient.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

/** Only the site's own pages may book (a foreign Origin is refused before the body is read). */
export const book = publicAction({
  body: bookingRequestSchema,
  run: async ({ db, ctx, body }) => json(await bookOnline(db, ctx, body as BookingRequest), { status: 201 }),
});

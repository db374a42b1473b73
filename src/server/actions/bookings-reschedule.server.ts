/** /api/bookings/reschedule: the patient's move through the link. */
import { rescheduleRequestSchema } from '../../lib/booking-schema';
import { moveByPatient } from '../bookings/patient.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

/** Only the site's own pages may move (a foreign Origin is refused before the body is read). */
export const reschedule = publicAction({
  body: rescheduleRequestSchema,
  run: async ({ db, ctx, body }) => json(await moveByPatient(db, ctx, body)),
});

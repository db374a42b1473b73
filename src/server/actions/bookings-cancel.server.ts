/** /api/bookings/cancel: the cancellation link's page and the patient's cancellation. */
import { cancellationTokenSchema } from '../../lib/booking-schema';
import * as z from '../../lib/zod';
import { appointmentToCancel, cancelByPatient } from '../bookings/patient.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

const tokenInput = z.object({ token: cancellationTokenSchema });

export const showAppointment = publicAction({
  query: tokenInput,
  run: async ({ db, query }) => json(await appointmentToCancel(db, query.token)),
});

/** Only the site's own pages may cancel (a foreign Origin is refused before the body is read). */
export const cancel = publicAction({
  body: tokenInput,
  run: async ({ db, ctx, body }) => {
    await cancelByPatient(db, ctx, body.token);
    return json({ cancelled: true });
  },
});

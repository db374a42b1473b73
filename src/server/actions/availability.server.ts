/** /api/availability: a type's free dates and times, and whether the wizard may offer SMS (docs/decisions/043-sms-second-channel.md). */
import { availabilityQuerySchema } from '../../lib/booking-schema';
import { getAvailability } from '../bookings/availability.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';
import { smsOffered } from '../sms/sms.server';

export const freeTimes = publicAction({
  query: availabilityQuerySchema,
  run: async ({ db, query }) => json({ ...(await getAvailability(db, query)), sms: smsOffered() }),
});

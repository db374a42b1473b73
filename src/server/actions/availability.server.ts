/** /api/availability: a type's free dates and times, and whether the wizard may offer SMS (docs/decisions/043-sms-second-channel.md). */
import { availabilityQuerySchema } from '../../lib/booking-schema';
import { availabilityCacheHeaders } from '../availability-cache.server';
import { getAvailability } from '../bookings/availability.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';
import { smsOffered } from '../sms/sms.server';

/** The same for every patient: Netlify's CDN keeps it per type and range until a change purges the type. */
export const freeTimes = publicAction({
  query: availabilityQuerySchema,
  run: async ({ db, query }) => {
    const answer = await getAvailability(db, query);
    return json({ ...answer, sms: smsOffered() }, { headers: availabilityCacheHeaders(answer.type) });
  },
});

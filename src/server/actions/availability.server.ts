/** /api/availability: a type's free dates and times. */
import { availabilityQuerySchema } from '../../lib/booking-schema';
import { getAvailability } from '../bookings/availability.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

export const freeTimes = publicAction({ query: availabilityQuerySchema, run: async ({ db, query }) => json(await getAvailability(db, query)) });

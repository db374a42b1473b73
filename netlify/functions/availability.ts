import { getDb } from '../../db/client';
import { availabilityQuerySchema } from '../../src/lib/booking-schema';
import { getAvailability } from '../../src/server/bookings/availability.server';
import { json, parseInput, queryOf, route } from '../../src/server/http.server';

export default route({
  GET: async (req) => {
    const query = parseInput(availabilityQuerySchema, queryOf(req));
    return json(await getAvailability(await getDb(), query));
  },
});

export const config = { path: '/api/availability' };

/** /api/admin/availability: the staff slot picker's dates and free times. */
import { staffAvailabilityQuerySchema } from '../../lib/admin-schemas';
import { getAvailability } from '../bookings/availability.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

/** Staff rules: up to 365 days ahead, any type (docs/decisions/021). */
export const staffAvailability = adminAction({
  query: staffAvailabilityQuerySchema,
  run: async ({ db, query }) => json(await getAvailability(db, query, new Date(), 'staff')),
});

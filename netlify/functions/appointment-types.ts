import { getDb } from '../../db/client';
import { listAppointmentTypes } from '../../src/server/appointment-types.server';
import { json, route } from '../../src/server/http.server';

export default route({
  GET: async () => json(await listAppointmentTypes(await getDb())),
});

export const config = { path: '/api/appointment-types' };

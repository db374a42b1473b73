import { getDb } from '../../db/client';
import { appointmentTypeSchema } from '../../src/lib/admin-schemas';
import { deleteAppointmentType, updateAppointmentType } from '../../src/server/admin/appointment-types.server';
import { itemId } from '../../src/server/admin/shared.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    const id = itemId(ctx, 'consultation type');
    const input = parseInput(appointmentTypeSchema, await readJson(req));
    return json(await updateAppointmentType(db, id, input));
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    await requireAdmin(req, db);
    await deleteAppointmentType(db, itemId(ctx, 'consultation type'));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/appointment-types/:id' };

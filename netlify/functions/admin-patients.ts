import { getDb } from '../../db/client';
import { patientSearchSchema } from '../../src/lib/admin-schemas';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { auditReveal, searchPatients } from '../../src/server/admin/patient-details.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, queryOf, route } from '../../src/server/http.server';

export default route({
  // "Patient suchen" (docs/decisions/025): today's and later bookings by name part or birth date; the query is never logged.
  GET: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const { q } = parseInput(patientSearchSchema, queryOf(req));
    const hits = await searchPatients(db, q, await dataKeyRingIfAny());
    await auditReveal(db, session, 'search', `Suche: ${hits.length === 1 ? '1 Treffer' : `${hits.length} Treffer`}`, hits.length);
    return json(hits);
  },
});

export const config = { path: '/api/admin/patients' };

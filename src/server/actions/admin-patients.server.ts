/** /api/admin/patients: "Patient suchen" (docs/decisions/025). */
import { patientSearchSchema } from '../../lib/admin-schemas';
import { auditReveal, searchPatients } from '../admin/patient-details.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

/** Today's and later bookings by name part or birth date; the query is never logged. */
export const findPatients = adminAction({
  query: patientSearchSchema,
  run: async ({ db, session, query: { q } }) => {
    const hits = await searchPatients(db, q, await dataKeyRingIfAny());
    await auditReveal(db, session, 'search', `Suche: ${hits.length === 1 ? '1 Treffer' : `${hits.length} Treffer`}`, hits.length);
    return json(hits);
  },
});

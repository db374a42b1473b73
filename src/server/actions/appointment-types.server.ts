/** /api/appointment-types: the consultation types patients may book. */
import { listAppointmentTypes } from '../appointment-types.server';
import { json } from '../http.server';
import { publicAction } from '../http/route.server';

export const bookableTypes = publicAction({ run: async ({ db }) => json(await listAppointmentTypes(db)) });

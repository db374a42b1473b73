import { actionsOf, adminRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/admin-booked-slot-cancel.server'));

export default adminRoute({ POST: load('cancelBooked') });

export const config = { path: '/api/admin/booked-slots/:id/cancel' };

import { actionsOf, adminRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/admin-booked-slot-move.server'));

export default adminRoute({ POST: load('moveBooked') });

export const config = { path: '/api/admin/booked-slots/:id/move' };

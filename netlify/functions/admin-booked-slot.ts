import { actionsOf, adminRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/admin-booked-slot.server'));

export default adminRoute({ DELETE: load('deleteBooked') });

export const config = { path: '/api/admin/booked-slots/:id' };

import { actionsOf, adminRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/admin-appointment-types.server'));

export default adminRoute({ GET: load('listTypes'), POST: load('createType') });

export const config = { path: '/api/admin/appointment-types' };

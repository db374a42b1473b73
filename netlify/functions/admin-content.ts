import { actionsOf, adminRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/admin-content.server'));

export default adminRoute({ GET: load('contentStoreKind'), POST: load('contentRequest') });

export const config = { path: '/api/admin/content' };

import { actionsOf, sessionRoute } from '../../src/server/http/session-route.server';

// Loaded for a request the guard lets through only (docs/decisions/023-functions-pre-bundled.md).
const load = actionsOf(() => import('../../src/server/actions/auth-session-item.server'));

export default sessionRoute({ DELETE: load('endSession'), POST: load('endOthers'), PUT: load('nameSession') });

export const config = { path: '/api/auth/sessions/:id' };

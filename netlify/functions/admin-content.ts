import { adminRoute } from '../../src/server/http/session-route.server';
import { contentRequest, contentStoreKind } from '../../src/server/actions/admin-content.server';

export default adminRoute({ GET: contentStoreKind, POST: contentRequest });

export const config = { path: '/api/admin/content' };

import { adminRoute } from '../../src/server/http/session-route.server';
import { changeSettings, showSettings } from '../../src/server/actions/admin-settings.server';

export default adminRoute({ GET: showSettings, PUT: changeSettings });

export const config = { path: '/api/admin/settings' };

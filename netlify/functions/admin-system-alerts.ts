import { adminRoute } from '../../src/server/http/session-route.server';
import { ownAlertSetting, setOwnAlertSetting } from '../../src/server/actions/admin-system-alerts.server';

export default adminRoute({ GET: ownAlertSetting, PUT: setOwnAlertSetting });

export const config = { path: '/api/admin/system/alerts' };

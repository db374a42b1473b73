import { publicRoute } from '../../src/server/http/route.server';
import { cancelWithoutScript } from '../../src/server/actions/booking-cancel-page.server';

export default publicRoute({ POST: cancelWithoutScript });

export const config = { path: ['/termin/absagen', '/en/termin/absagen'], method: 'POST' };

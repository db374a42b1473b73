import { publicRoute } from '../../src/server/http/route.server';
import { receiveReport } from '../../src/server/actions/webhooks-sms.server';

export default publicRoute({ POST: receiveReport });

export const config = { path: '/api/webhooks/sms' };

import { publicRoute } from '../../src/server/http/route.server';
import { receiveEvent } from '../../src/server/actions/webhooks-postmark.server';

export default publicRoute({ POST: receiveEvent });

export const config = { path: '/api/webhooks/postmark' };

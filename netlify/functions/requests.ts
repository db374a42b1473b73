import { publicRoute } from '../../src/server/http/route.server';
import { receiveRequest, showOffer } from '../../src/server/actions/requests.server';

export default publicRoute({ GET: showOffer, POST: receiveRequest });

export const config = { path: '/api/requests' };

import { publicRoute } from '../../src/server/http/route.server';
import { showOffer, takeOffer } from '../../src/server/actions/waitlist-offer.server';

export default publicRoute({ GET: showOffer, POST: takeOffer });

export const config = { path: '/api/waitlist/offer' };

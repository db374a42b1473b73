import { publicRoute } from '../../src/server/http/route.server';
import { freeTimes } from '../../src/server/actions/availability.server';

export default publicRoute({ GET: freeTimes });

export const config = { path: '/api/availability' };

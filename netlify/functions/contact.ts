import { publicRoute } from '../../src/server/http/route.server';
import { sendMessage } from '../../src/server/actions/contact.server';

export default publicRoute({ POST: sendMessage });

export const config = { path: '/api/contact' };

import { publicRoute } from '../../src/server/http/route.server';
import { showRequestForm } from '../../src/server/actions/request-form.server';

export default publicRoute({ GET: showRequestForm });

export const config = { path: ['/anfrage/formular', '/en/request/form'] };

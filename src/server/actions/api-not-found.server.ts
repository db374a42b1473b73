/** Any /api path no other function serves: 404 problem+json, never the HTML 404 page. */
import { problem } from '../http.server';
import { observed } from '../http/observe.server';
import { withSecurityHeaders } from '../security-headers';

export const notFound = observed(
  () => {
    const response = problem(404, 'not-found', 'No such endpoint.');
    withSecurityHeaders(response.headers);
    return response;
  },
  { catchAll: true },
);

/**
 * GET /api/health (docs/decisions/045-operations.md): for uptime monitors,
 * public, never cached. 200 `{ status: "ok", checks }` when every check is
 * `ok`, else 503 `{ status: "degraded", checks }`; each check is `ok`,
 * `late` or `failing` and nothing else (operations/health.server.ts). HEAD
 * answers the same status without a body (some monitors ask with HEAD).
 *
 * Not behind route()'s configuration guard: a production site missing a
 * variable answers here with `mail` (or the check that needs it) failing
 * rather than a bare 503 not-configured. It reads only: no after-answer
 * work, nothing written.
 */
import { json, problem, type Handler } from '../http.server';
import { observed } from '../http/observe.server';
import { healthChecks, overallStatus } from '../operations/health.server';
import { withSecurityHeaders } from '../security-headers';

const answer: Handler = async (req) => {
  let response: Response;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    response = problem(405, 'method-not-allowed', 'Use GET, HEAD.', undefined, { allow: 'GET, HEAD' });
  } else {
    const checks = await healthChecks();
    const status = overallStatus(checks);
    const body = json({ status, checks }, { status: status === 'ok' ? 200 : 503 });
    response = req.method === 'HEAD' ? new Response(null, { status: body.status, headers: body.headers }) : body;
  }
  withSecurityHeaders(response.headers);
  return response;
};
answer.allow = 'GET, HEAD';

export const health = observed(answer, { watch: false });

/**
 * What every function does around its route table (docs/decisions/045-operations.md):
 * gives the request an id, returned as `X-Request-Id` on every answer
 * (errors included); writes one JSON line with the route's pattern,
 * status, duration and that id (operations/request-log.server.ts); sends
 * an answer 500's error to Sentry when SENTRY_DSN is set; and, after the
 * answer, lets the operations watch look at the job's heartbeat
 * (operations/watch.server.ts). None of it delays the answer.
 */
import { unexpectedErrorOf, type Handler } from '../http.server';
import { reportError } from '../operations/error-reports.server';
import { requestIdOf, routePatternOf, writeLogLine } from '../operations/request-log.server';
import { watchAfterResponse } from '../operations/watch.server';

export interface ObserveOptions {
  /** The machines' probe (/api/health) never writes: no watch after it. */
  watch?: boolean;
  /** The catch-all's unknown paths are logged cut short. */
  catchAll?: boolean;
}

export function observed(handler: Handler, options: ObserveOptions = {}): Handler {
  const wrapped: Handler = async (req, ctx) => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    const response = await handler(req, ctx);
    response.headers.set('x-request-id', requestId);
    const route = routePatternOf(req, ctx.params ?? {}, { catchAll: options.catchAll });
    writeLogLine({ kind: 'request', method: req.method, route, status: response.status, ms: Math.round(performance.now() - started), request_id: requestId });
    const error = unexpectedErrorOf(response);
    if (error !== undefined) ctx.waitUntil(reportError(error, { kind: 'request', where: route, method: req.method, requestId }));
    if (options.watch !== false) watchAfterResponse(ctx);
    return response;
  };
  if (handler.allow) wrapped.allow = handler.allow;
  return wrapped;
}

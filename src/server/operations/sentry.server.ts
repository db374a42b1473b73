/**
 * Sentry's official Node SDK, loaded only when SENTRY_DSN is set
 * (error-reports.server.ts imports this module on the first report).
 *
 * A client of our own, not Sentry.init(): no global handlers, no
 * OpenTelemetry, no automatic instrumentation of HTTP, fetch, the database
 * or the console, so nothing is recorded that we did not hand over. What
 * we hand over is the error and four tags (kind, route pattern, method,
 * request id); the Request itself never reaches Sentry.
 *
 * Scrubbed again before sending (scrubEvent), whatever an integration or
 * a later change might add: no request (body, cookies, query string,
 * headers, URL), no user, no IP address, no server name, no breadcrumbs,
 * no extra data or contexts beyond the runtime's; exception messages are
 * dropped (a driver's message can quote a row: "Key (email)=(…)"), only
 * the error's type and the stack's file, function and line stay, without
 * source lines or local variables. (sendDefaultPii, which only
 * Sentry.init's integrations read, stays at its default: off.)
 */
import {
  dedupeIntegration,
  defaultStackParser,
  linkedErrorsIntegration,
  makeNodeTransport,
  NodeClient,
  Scope,
  type Breadcrumb,
  type ErrorEvent,
  type Event,
} from '@sentry/node';
import { variables } from '../env.server';

/** What a report says of where it happened (error-reports.server.ts). */
export interface ReportScope {
  /** `request` (a route answered 500) or `job` (a step of the every-minute job threw). */
  kind: 'request' | 'job';
  /** The route's pattern (/api/bookings) or the job's step (reminders). */
  where: string;
  method?: string;
  requestId?: string;
}

type TransportFactory = NonNullable<ConstructorParameters<typeof NodeClient>[0]['transport']>;

let client: { dsn: string; client: NodeClient } | undefined;
let transportForTests: TransportFactory | undefined;

/** Tests hand in a transport that records envelopes instead of sending them. */
export function useTransport(transport: TransportFactory | undefined): void {
  transportForTests = transport;
  client = undefined;
}

const TAGS = new Set(['kind', 'where', 'method', 'request_id']);

/** What may leave the process (see the module's comment). */
export function scrubEvent<E extends Event>(event: E): E {
  delete event.request;
  delete event.user;
  delete event.server_name;
  delete event.extra;
  delete event.breadcrumbs;
  delete event.modules;
  delete event.transaction;
  event.contexts = event.contexts?.runtime ? { runtime: event.contexts.runtime } : {};
  event.tags = Object.fromEntries(Object.entries(event.tags ?? {}).filter(([key]) => TAGS.has(key)));
  if (event.message) event.message = '';
  delete event.logentry;
  for (const exception of event.exception?.values ?? []) {
    exception.value = '';
    delete exception.module;
    for (const frame of exception.stacktrace?.frames ?? []) {
      delete frame.vars;
      delete frame.context_line;
      delete frame.pre_context;
      delete frame.post_context;
      delete frame.abs_path;
    }
    if (exception.mechanism) delete exception.mechanism.data;
  }
  return event;
}

function clientFor(dsn: string): NodeClient {
  if (client?.dsn === dsn) return client.client;
  const source = variables();
  const instance = new NodeClient({
    dsn,
    environment: source.CONTEXT ?? (source.APP_ENV === 'development' ? 'development' : 'production'),
    release: source.COMMIT_REF,
    sendClientReports: false,
    maxBreadcrumbs: 0,
    stackParser: defaultStackParser,
    transport: transportForTests ?? makeNodeTransport,
    integrations: [dedupeIntegration(), linkedErrorsIntegration()],
    beforeSend: (event: ErrorEvent) => scrubEvent(event),
    beforeBreadcrumb: (_crumb: Breadcrumb) => null,
  });
  instance.init();
  client = { dsn, client: instance };
  return instance;
}

/** Captures one error with our tags only, and waits (at most 2 s) until it left. */
export async function captureScrubbed(dsn: string, error: unknown, where: ReportScope): Promise<void> {
  const instance = clientFor(dsn);
  const scope = new Scope();
  scope.setClient(instance);
  scope.setTags({
    kind: where.kind,
    where: where.where,
    ...(where.method ? { method: where.method } : {}),
    ...(where.requestId ? { request_id: where.requestId } : {}),
  });
  // Only an Error's type and stack go; anything else thrown becomes a plain marker of its kind.
  const reported = error instanceof Error ? error : new Error('non-error thrown');
  scope.captureException(reported);
  await instance.flush(2000);
}

/**
 * One JSON line per request and per job run (docs/decisions/045-operations.md):
 * what ran (the route's pattern, never the path a patient's link filled
 * in, never a query string), its status, how long it took, the request's
 * id, and for the job the counts of what it did. Never a value a patient
 * entered, a token or an address: the fields are fixed, and every value
 * is a pattern, a number, a name of ours or an id we made.
 *
 * Netlify keeps a function's lines under Logs & metrics → Functions (README,
 * Operations). In production every line is written; locally only when the
 * local server (or a test) asks for them (logLinesTo).
 */
import { randomUUID } from 'node:crypto';
import { isProductionEnv } from '../env.server';

export interface RequestLine {
  kind: 'request';
  method: string;
  route: string;
  status: number;
  ms: number;
  request_id: string;
}

export interface JobLine {
  kind: 'job';
  outcome: 'ok' | 'failed';
  failed_steps: string[];
  ms: number;
  request_id: string;
  /** What the steps did, as counts (reminders queued, emails sent, …). */
  counts: Record<string, number>;
}

type Sink = (line: string) => void;
let sink: Sink | null | undefined;

/** Where the lines go: a function (the local server: console.info; tests: a list), or null for nowhere. */
export function logLinesTo(target: Sink | null | undefined): void {
  sink = target;
}

export function writeLogLine(line: RequestLine | JobLine): void {
  const target = sink === undefined ? (isProductionEnv() ? (text: string) => console.info(text) : null) : sink;
  target?.(JSON.stringify({ at: new Date().toISOString(), ...line }));
}

/** Netlify's id of the request (x-nf-request-id) when it is one, else a new one. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get('x-nf-request-id');
  return given && /^[A-Za-z0-9-]{8,64}$/.test(given) ? given : randomUUID();
}

/**
 * The route's pattern: the path with each segment the route's parameters
 * matched put back as `:name` (/api/admin/booked-slots/:id/cancel). A
 * request no route parameter explains keeps its literal path: function
 * paths are ours, and whatever else reaches a function (the catch-all's
 * unknown paths) is cut to its first two segments.
 */
export function routePatternOf(req: Request, params: Record<string, string>, { catchAll = false } = {}): string {
  const segments = new URL(req.url).pathname.split('/');
  const byValue = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) byValue.set(encodeURIComponent(value), name);
  const named = segments.map((segment) => (byValue.has(segment) ? `:${byValue.get(segment)}` : segment));
  return catchAll ? `${named.slice(0, 3).join('/')}${named.length > 3 ? '/*' : ''}` : named.join('/');
}

/** Flattens nested counts ({ delivery: { sent: 2 } } → { 'delivery.sent': 2 }): numbers only. */
export function countsOf(value: unknown, prefix = '', out: Record<string, number> = {}): Record<string, number> {
  if (typeof value === 'number' && Number.isFinite(value)) out[prefix || 'value'] = value;
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) countsOf(inner, prefix ? `${prefix}.${key}` : key, out);
  }
  return out;
}

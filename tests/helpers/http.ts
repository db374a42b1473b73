/** Calls a function handler as Netlify would, without a network. */
import type { Handler, RequestContext } from '../../src/server/http.server';

export interface CallOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  ip?: string;
  query?: Record<string, string>;
}

/** Work handlers left running after their answer (context.waitUntil), until a test awaits it. */
const pending = new Set<Promise<unknown>>();

/** Waits for every piece of work handlers left running after their answers (emails sent after a 202, …). */
export async function settled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

export async function call(handler: Handler, path: string, options: CallOptions = {}) {
  const url = new URL(path, 'http://localhost:4321');
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const ctx: RequestContext = {
    params: options.params ?? {},
    ip: options.ip ?? '127.0.0.1',
    waitUntil(work) {
      pending.add(work);
      void work.finally(() => pending.delete(work));
    },
  };
  const started = performance.now();
  const response = await handler(new Request(url, { method: options.method ?? 'GET', headers, body }), ctx);
  // When the handler handed its answer over: what a client waits for, before any work it left running.
  const answeredAfterMs = performance.now() - started;
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as any, answeredAfterMs };
}

/** The cookie pairs a response sets, as a Cookie header for the next call (cleared ones left out). */
export function cookieHeaderOf(res: { headers: Headers }): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

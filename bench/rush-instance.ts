/**
 * One function instance of the rush benchmark (bench/rush.ts), in a process
 * of its own, as Netlify runs each instance: the real handlers of the
 * routes a patient uses (availability, booking, waitlist) and the
 * scheduled job, each with the process's one database pool, answering over
 * HTTP. The benchmark sends an instance one request at a time, as Lambda
 * does.
 *
 * - Server mode (RUSH_WS_PROXY set): the Neon serverless driver over a
 *   local WebSocket proxy to PgBouncer in transaction mode, as production
 *   reaches Neon's pooled host.
 * - Embedded mode: PGlite in DATA_DIR, one instance taking every request
 *   (the local default; PGlite is one process).
 *
 * The client's address comes from `x-rush-client` (each simulated patient
 * has its own, as on the day). Postmark is a stand-in inside the process
 * that takes RUSH_MAIL_MS per message (the client's fetch); every other
 * fetch (the CDN purge) goes out as usual. Prints `listening <port>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handler } from '../src/server/http.server';

const mailMs = Number(process.env.RUSH_MAIL_MS ?? 150);
const realFetch = globalThis.fetch;
let mailsSent = 0;
globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  if (!String(input instanceof Request ? input.url : input).startsWith('https://api.postmarkapp.com/')) return realFetch(input, init);
  await new Promise((resolve) => setTimeout(resolve, mailMs));
  mailsSent++;
  const body = JSON.parse(String(init?.body)) as { To: string };
  return Response.json({ To: body.To, SubmittedAt: new Date().toISOString(), MessageID: crypto.randomUUID(), ErrorCode: 0, Message: 'OK' });
}) as typeof fetch;

if (process.env.RUSH_WS_PROXY) {
  const { neonConfig } = await import('@neondatabase/serverless');
  const { default: WebSocket } = await import('ws');
  const proxy = process.env.RUSH_WS_PROXY;
  const bouncer = process.env.RUSH_BOUNCER_PORT;
  Object.assign(neonConfig, {
    webSocketConstructor: WebSocket,
    wsProxy: () => `${proxy}/v2?address=127.0.0.1:${bouncer}`,
    useSecureWebSocket: false,
    pipelineConnect: false,
    pipelineTLS: false,
  });
}

const routes: Record<string, Handler> = {
  '/api/availability': (await import('../netlify/functions/availability')).default,
  '/api/bookings': (await import('../netlify/functions/bookings')).default,
  '/api/waitlist': (await import('../netlify/functions/waitlist')).default,
};
const { scheduledJobs } = await import('../src/server/actions/send-reminders.server');
const { getDb } = await import('../src/server/database.server');
const { rowsOf } = await import('../src/server/bookings/shared.server');
const { sql: { raw } } = await import('drizzle-orm');

let pending = 0;

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  if (url.pathname === '/__rush/job') {
    const answer = await scheduledJobs();
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(await answer.text());
    return;
  }
  if (url.pathname === '/__rush/query') {
    // The benchmark's set-up and its counts, through this process's own database (PGlite lives here).
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { sql } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sql: string };
    try {
      const result = await (await getDb()).execute(raw(sql));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(rowsOf(result)));
    } catch (error) {
      res.writeHead(500).end(String((error as Error).message));
    }
    return;
  }
  if (url.pathname === '/__rush/state') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ pending, mailsSent }));
    return;
  }
  const handler = routes[url.pathname];
  if (!handler) {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const request = new Request(url, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
  const started = performance.now();
  const response = await handler(request, {
    params: {},
    ip: String(req.headers['x-rush-client'] ?? '127.0.0.1'),
    waitUntil(work) {
      pending++;
      void work.finally(() => pending--);
    },
  });
  const out: Record<string, string> = { 'x-app-ms': (performance.now() - started).toFixed(2) };
  response.headers.forEach((value, key) => (out[key] = value));
  res.writeHead(response.status, out);
  res.end(Buffer.from(await response.arrayBuffer()));
});

server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));

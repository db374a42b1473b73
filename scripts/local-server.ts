/**
 * The built site in one process: static files from dist/ and every
 * netlify/functions handler mounted at its `config.path`, called with a
 * standard Request and a context holding `params` and `ip` as Netlify's
 * does. Used by `npm start`, the e2e tests and the benchmarks, because
 * `astro preview` serves no functions and the Netlify emulator fails under
 * concurrent requests.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import type { Handler } from '../src/server/http.server';
import { registerLocalOrigins } from '../src/server/auth/origin.server';
import { errorResponse, problem } from '../src/server/http.server';

export interface FunctionRoute {
  name: string;
  pattern: string;
  match: (pathname: string) => Record<string, string> | null;
  handler: Handler;
  /**
   * The methods the function runs for (its `config.method`); other methods
   * fall through to the static files, as on Netlify (a page's form post
   * answered by a function while the page itself stays static).
   */
  methods?: string[];
}

/** Whether `route` serves this request: its path, and its methods when it names them. */
export function routeServes(route: FunctionRoute, method: string, pathname: string): boolean {
  if (route.methods && !route.methods.includes(method.toUpperCase())) return false;
  return route.match(pathname) !== null;
}

/** Netlify's config.path syntax as we use it: literal segments, `:param` and a trailing `*`. */
export function compilePath(pattern: string): (pathname: string) => Record<string, string> | null {
  const parts = pattern.replace(/\/$/, '').split('/');
  return (pathname) => {
    const segments = pathname.replace(/\/$/, '').split('/');
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part === '*') return params;
      const segment = segments[i];
      if (segment === undefined) return null;
      if (part.startsWith(':')) {
        if (segment === '') return null;
        try {
          params[part.slice(1)] = decodeURIComponent(segment);
        } catch {
          return null;
        }
      } else if (part !== segment) return null;
    }
    return segments.length === parts.length ? params : null;
  };
}

export async function loadFunctions(dir: string): Promise<FunctionRoute[]> {
  const files = (await readdir(dir)).filter((f) => /\.(ts|mts|js|mjs)$/.test(f) && !f.includes('.test.'));
  const routes: FunctionRoute[] = [];
  for (const file of files.sort()) {
    const mod = (await import(/* @vite-ignore */ pathToFileURL(path.join(dir, file)).href)) as {
      default?: Handler;
      config?: { path?: string | string[]; method?: string | string[] };
    };
    if (!mod.default || !mod.config?.path) continue;
    const methods = mod.config.method ? [mod.config.method].flat().map((m) => m.toUpperCase()) : undefined;
    for (const pattern of [mod.config.path].flat()) {
      routes.push({ name: file, pattern, match: compilePath(pattern), handler: mod.default, ...(methods ? { methods } : {}) });
    }
  }
  // Literal routes win over parameterised ones, and those over a catch-all (`/api/*`), as on Netlify.
  const rank = (p: string) => (p.endsWith('*') ? 2 : p.includes(':') ? 1 : 0);
  return routes.sort((a, b) => rank(a.pattern) - rank(b.pattern));
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.ics': 'text/calendar; charset=utf-8',
};

const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.webmanifest', '.svg', '.txt', '.xml', '.ics']);

async function fileAt(root: string, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const resolved = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  if (resolved !== root && !resolved.startsWith(root + path.sep)) return null;
  for (const candidate of [resolved, `${resolved}.html`, path.join(resolved, 'index.html')]) {
    const info = await stat(candidate).catch(() => null);
    if (info?.isFile()) return candidate;
  }
  return null;
}

export interface ServerOptions {
  port: number;
  host?: string;
  distDir: string;
  functionsDir: string;
  /** Routes mounted beside the functions (benchmarks mount old-style endpoints to compare). */
  extraRoutes?: FunctionRoute[];
  /** Headers added to every response (security headers). */
  headers?: Record<string, string>;
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  server: http.Server;
  /** Every origin the server listens on (for a loopback address: as localhost and as 127.0.0.1). */
  origins: string[];
  /** Stops at once, dropping open connections. */
  close(): Promise<void>;
  /**
   * Graceful stop: no new connections or requests, the requests in flight
   * finish (their handlers, emails included, and their answers, and the
   * work they left running after answering through waitUntil) for up to
   * `graceMs`, then every connection is closed. Resolves true when all
   * finished in time.
   */
  shutdown(graceMs?: number): Promise<boolean>;
}

const MAX_REQUEST_BYTES = 1024 * 1024;
export const SHUTDOWN_GRACE_MS = 10_000;

/** host[:port] as RFC 3986 allows it in a Host header: a DNS name, IPv4 or bracketed IPv6, and a port 1–65535. */
const HOST_HEADER = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/** The request's URL, or null when its Host header or target cannot form one (400, never a crash). */
export function requestUrl(target: string | undefined, hostHeader: string | undefined, fallbackHost: string): URL | null {
  const host = hostHeader ?? fallbackHost;
  const match = HOST_HEADER.exec(host);
  if (!match) return null;
  if (match[1] !== undefined && (Number(match[1]) < 1 || Number(match[1]) > 65_535)) return null;
  if (!target?.startsWith('/')) return null;
  try {
    return new URL(target, `http://${host}`);
  } catch {
    return null;
  }
}

/** Errors a stream raises when the client went away mid-request. */
function isClientAbort(error: unknown, req: http.IncomingMessage): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'EPIPE') return true;
  return error instanceof Error && error.message === 'aborted' && req.destroyed;
}

/** The origins a listening address is reached at; a loopback address both as localhost and as 127.0.0.1. */
function originsOf(address: AddressInfo): string[] {
  const loopback = address.address === '127.0.0.1' || address.address === '::1' || address.address === 'localhost';
  if (loopback) {
    return [`http://localhost:${address.port}`, `http://127.0.0.1:${address.port}`, `http://[::1]:${address.port}`];
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return [`http://${host}:${address.port}`];
}

export async function startLocalServer(options: ServerOptions): Promise<RunningServer> {
  const root = path.resolve(options.distDir);
  const routes = [...(options.extraRoutes ?? []), ...(await loadFunctions(path.resolve(options.functionsDir)))];
  const extraHeaders = options.headers ?? {};
  const log = options.log ?? ((line: string) => console.info(line));
  const listenHost = options.host ?? '127.0.0.1';
  let stopping = false;
  /** Requests being answered and work they left running after their answer (waitUntil). */
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<unknown>) => {
    const done = work.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    let abortLogged = false;
    const logAbort = (pathname: string) => {
      if (abortLogged) return;
      abortLogged = true;
      // One short line, no stack: a client that leaves is not a bug, and must not flood the log.
      log(`client aborted ${req.method ?? '?'} ${pathname}`);
    };
    let pathname = '?';
    try {
      for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
      // Every answer carries an id (a function's own id replaces this one; docs/decisions/045-operations.md).
      res.setHeader('x-request-id', randomUUID());
      if (stopping) {
        res.setHeader('connection', 'close');
        await sendResponse(res, problem(503, 'shutting-down', 'The server is restarting; try again in a moment.', undefined, { 'retry-after': '5' }));
        return;
      }
      const url = requestUrl(req.url, req.headers.host, `${listenHost.includes(':') ? `[${listenHost}]` : listenHost}`);
      if (!url) {
        res.setHeader('connection', 'close');
        await sendResponse(res, problem(400, 'bad-request', 'The request target or Host header is malformed.'));
        return;
      }
      pathname = url.pathname;
      const route = routes.find((r) => routeServes(r, req.method ?? 'GET', url.pathname));
      if (route) {
        await callFunctionRoute(route, url, req, res, track);
        return;
      }
      if (url.pathname.startsWith('/api/')) {
        await sendResponse(res, problem(404, 'not-found', 'No such endpoint.'));
        return;
      }
      await serveStatic(url, req, res);
    } catch (error) {
      if (isClientAbort(error, req)) {
        logAbort(pathname);
        res.destroy();
        return;
      }
      if (!res.headersSent) await sendResponse(res, errorResponse(error));
      else res.destroy();
    }
  }

  const server = http.createServer((req, res) => {
    track(
      handle(req, res)
        .catch(() => {
          // Whatever happened, this one request ends here and the server keeps answering.
          res.destroy();
        })
        .then(() => finished(res)),
    );
  });
  // CONNECT is not for this server: 405, never a dangling or crashed socket.
  server.on('connect', (_req, socket) => {
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  // Unparseable request lines and headers: Node's parser answers 400 (431 for
  // oversized headers); a socket that is already gone is simply dropped.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  });

  async function serveStatic(url: URL, req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let file = await fileAt(root, url.pathname);
    let status = 200;
    if (!file) {
      // The unknown path is logged (the path only, never a query).
      log(`404 ${url.pathname}`);
      // As public/_redirects tells Netlify: the English 404 page under /en/.
      const english = /^\/en(\/|$)/.test(url.pathname) ? await fileAt(root, '/en/404/') : null;
      file = english ?? path.join(root, '404.html');
      status = 404;
    }
    const ext = path.extname(file);
    const immutable = url.pathname.startsWith('/_astro/');
    // Text is gzipped as Netlify's CDN does, so page-weight and Lighthouse
    // figures measured against this server match production.
    const gzip = COMPRESSIBLE.has(ext) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    res.writeHead(status, {
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      ...(COMPRESSIBLE.has(ext) ? { vary: 'accept-encoding' } : {}),
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(file);
    if (gzip) stream.pipe(createGzip()).pipe(res);
    else stream.pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, listenHost, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origins = originsOf(address);
  registerLocalOrigins(origins);
  return {
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${address.port}`,
    server,
    origins,
    close: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    async shutdown(graceMs = SHUTDOWN_GRACE_MS) {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      });
      let drained = true;
      // Requests that arrive on a kept-alive connection meanwhile get 503 and
      // finish quickly; loop until nothing is left in flight.
      while (inFlight.size > 0) {
        const result = await Promise.race([Promise.all([...inFlight]).then(() => true as const), deadline]);
        if (result === false) {
          drained = false;
          break;
        }
      }
      clearTimeout(timer);
      server.closeAllConnections();
      await closed;
      return drained;
    },
  };
}

function finished(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.writableFinished || res.destroyed) return resolve();
    res.once('finish', () => resolve());
    res.once('close', () => resolve());
  });
}

/** Methods the Fetch API refuses to construct a Request with (TRACE, TRACK, CONNECT). */
function fetchForbiddenMethod(method: string): boolean {
  try {
    new Request('http://localhost/', { method });
    return false;
  } catch {
    return true;
  }
}

/**
 * Answers one request with a function handler, as Netlify would (shared by
 * the local and the dev server). `waitUntil` receives work the handler
 * leaves running after its answer (Netlify's context.waitUntil); the dev
 * server has no graceful stop and lets it run.
 */
export async function callFunctionRoute(
  route: FunctionRoute,
  url: URL,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  waitUntil: (work: Promise<unknown>) => void = (work) => void work.catch(() => undefined),
) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) {
      await sendResponse(res, problem(413, 'payload-too-large', 'The body is too large.'));
      req.destroy();
      return;
    }
    chunks.push(chunk as Buffer);
  }
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) v.forEach((item) => headers.append(k, item));
    else if (v !== undefined) headers.set(k, v);
  }
  const method = req.method ?? 'GET';
  if (fetchForbiddenMethod(method)) {
    // TRACE and friends cannot even become a Request: 405 like any method the function does not serve.
    const allow = route.handler.allow ?? 'GET, HEAD, POST, PUT, PATCH, DELETE';
    await sendResponse(res, problem(405, 'method-not-allowed', `Use ${allow}.`, undefined, { allow }));
    return;
  }
  const hasBody = !['GET', 'HEAD'].includes(method);
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
  const ip = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const started = performance.now();
  const response = await route.handler(request, { params: route.match(url.pathname) ?? {}, ip, waitUntil });
  // Server-Timing lets benchmarks read the handler's own time, without the network.
  res.setHeader('server-timing', `app;dur=${(performance.now() - started).toFixed(2)}`);
  await sendResponse(res, response);
}

export async function sendResponse(res: http.ServerResponse, response: Response) {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

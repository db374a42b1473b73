/**
 * The built site in one process: static files from dist/ and every
 * netlify/functions handler mounted at its `config.path`, called with a
 * standard Request and a context holding `params` and `ip` as Netlify's
 * does. Used by `npm start`, the e2e tests and the benchmarks, because
 * `astro preview` does not work with the Netlify adapter and the Netlify
 * emulator fails under concurrent requests.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import type { Handler } from '../src/server/http.server';
import { errorResponse, problem } from '../src/server/http.server';

export interface FunctionRoute {
  name: string;
  pattern: string;
  match: (pathname: string) => Record<string, string> | null;
  handler: Handler;
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
      config?: { path?: string | string[] };
    };
    if (!mod.default || !mod.config?.path) continue;
    for (const pattern of [mod.config.path].flat()) {
      routes.push({ name: file, pattern, match: compilePath(pattern), handler: mod.default });
    }
  }
  // Literal routes win over parameterised ones, as on Netlify.
  return routes.sort((a, b) => Number(a.pattern.includes(':')) - Number(b.pattern.includes(':')));
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
  close(): Promise<void>;
}

const MAX_REQUEST_BYTES = 1024 * 1024;

export async function startLocalServer(options: ServerOptions): Promise<RunningServer> {
  const root = path.resolve(options.distDir);
  const routes = [...(options.extraRoutes ?? []), ...(await loadFunctions(path.resolve(options.functionsDir)))];
  const extraHeaders = options.headers ?? {};
  const log = options.log ?? ((line: string) => console.info(line));

  const server = http.createServer(async (req, res) => {
    for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    try {
      const route = routes.find((r) => r.match(url.pathname) !== null);
      if (route) {
        await callFunctionRoute(route, url, req, res);
        return;
      }
      if (url.pathname.startsWith('/api/')) {
        await sendResponse(res, problem(404, 'not-found', 'No such endpoint.'));
        return;
      }
      await serveStatic(url, req, res);
    } catch (error) {
      if (!res.headersSent) await sendResponse(res, errorResponse(error));
      else res.destroy();
    }
  });

  async function serveStatic(url: URL, req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let file = await fileAt(root, url.pathname);
    let status = 200;
    if (!file) {
      // SPEC.md §2: the unknown path is logged (the path only, never a query).
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
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Answers one request with a function handler, as Netlify would (shared by the local and the dev server). */
export async function callFunctionRoute(route: FunctionRoute, url: URL, req: http.IncomingMessage, res: http.ServerResponse) {
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
  const hasBody = !['GET', 'HEAD'].includes(req.method ?? 'GET');
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
  const ip = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const started = performance.now();
  const response = await route.handler(request, { params: route.match(url.pathname) ?? {}, ip });
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

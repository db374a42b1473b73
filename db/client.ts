/**
 * The one database client, opened with the settings its caller hands down
 * (db/settings.ts: the site's and the functions' come from src/server's
 * config module, installed as the source getDb() asks). Which driver runs depends on the database URL
 * (DATABASE_URL, or NETLIFY_DATABASE_URL when that is unset) only:
 *
 * - unset            → PGlite (embedded Postgres) persisted in $DATA_DIR/pglite (default .data/)
 * - `pglite:memory`  → PGlite in memory (tests)
 * - `pglite:/a/path` → PGlite persisted in that folder
 * - a Neon URL       → the Neon serverless driver (WebSocket pool, supports transactions)
 * - any postgres://  → node-postgres pool
 *
 * PGlite is local only: production refuses it (503 not-configured, by the
 * settings' source in src/server before anything opens), and it lives in
 * db/pglite.ts, loaded by a computed specifier so that Netlify's file
 * tracing never puts it into a function bundle.
 *
 * Both server drivers have a connect timeout and a client-side statement
 * (query) timeout, so a frozen or unreachable database fails fast (503
 * database-unavailable) instead of hanging, and an 'error' listener, so an
 * idle connection the server drops (Neon's suspend, a pooler restart) is
 * discarded and the process lives on.
 *
 * The client is cached per process, so warm serverless invocations reuse it
 * (create-t3-app does the same). A server database is migrated by
 * `npm run db:migrate`, the local server's start and the Netlify build,
 * never by request handlers racing each other.
 */
import * as schema from './schema';
import { providedDatabaseSettings, type DatabaseSettings } from './settings';

export type { DatabaseSettings } from './settings';

export type { Database, DatabaseHandle, DriverKind, Executor, Schema } from './types';
import type { Database, DatabaseHandle, DriverKind } from './types';

export function driverFor(url: string | undefined): DriverKind {
  if (!url || url.startsWith('pglite:')) return 'pglite';
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new Error('DATABASE_URL is not a valid URL (expected postgres://… or pglite:…)');
  }
  return /\.neon\.(tech|build)$/.test(host) ? 'neon' : 'node-postgres';
}

/** The embedded database module, by a specifier file tracing cannot follow. */
const EMBEDDED_MODULE = ['pglite', 'ts'];

export async function openDatabase(settings: DatabaseSettings): Promise<DatabaseHandle> {
  const { url } = settings;
  const kind = driverFor(url);

  if (kind === 'pglite') {
    // A plain variable (no template literal, which esbuild would expand into a
    // glob of db/), relative so Vite (astro dev, vitest) and tsx resolve it.
    const specifier = ['.', EMBEDDED_MODULE.join('.')].join('/');
    const embedded = (await import(/* @vite-ignore */ specifier)) as typeof import('./pglite');
    return embedded.openEmbeddedDatabase(url, settings.dataDir);
  }

  const options = {
    connectionString: url,
    max: settings.poolSize,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    query_timeout: settings.statementTimeoutMs,
  };
  // An idle client that errors (server restart, Neon suspend, pooler restart)
  // is removed from the pool; without a listener the 'error' event ends the process.
  const onIdleError = (error: Error) => console.warn(`database connection dropped (${(error as { code?: string }).code ?? error.name}); it is replaced on next use`);
  // The pool listens only while a client is idle. A client checked out for a
  // transaction whose connection drops between two statements would emit an
  // unheard 'error' and end the process; its next query fails instead (503).
  const onClient = (client: { on(event: 'error', listener: (error: Error) => void): unknown }) => client.on('error', () => {});

  if (kind === 'neon') {
    // The driver and drizzle's adapter load together: one file's read while the other compiles.
    const [{ Pool, neonConfig }, { drizzle }] = await Promise.all([import('@neondatabase/serverless'), import('drizzle-orm/neon-serverless')]);
    // Node 22 (Netlify's functions) has a global WebSocket; ws is for a local
    // Node 20 only and stays out of the function bundles (netlify.toml).
    if (typeof globalThis.WebSocket === 'undefined' && !neonConfig.webSocketConstructor) {
      neonConfig.webSocketConstructor = (await import('ws')).default;
    }
    const pool = new Pool(options);
    pool.on('error', onIdleError);
    pool.on('connect', onClient);
    const db: Database = drizzle(pool, { schema });
    return { db, kind, close: () => pool.end() };
  }

  const [pg, { drizzle }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
  const pool = new pg.default.Pool(options);
  pool.on('error', onIdleError);
  pool.on('connect', onClient);
  const db: Database = drizzle(pool, { schema });
  return { db, kind, close: () => pool.end() };
}

let cached: Promise<DatabaseHandle> | undefined;

async function openConfigured(): Promise<DatabaseHandle> {
  return openDatabase(providedDatabaseSettings());
}

/** The process-wide database, opened on first use. */
export async function getDb(): Promise<Database> {
  cached ??= openConfigured().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return (await cached).db;
}

export async function getDatabaseHandle(): Promise<DatabaseHandle> {
  await getDb();
  return cached as Promise<DatabaseHandle>;
}

/** Closes the process-wide database (clean shutdown, tests switching databases). */
export async function closeDb(): Promise<void> {
  const current = cached;
  cached = undefined;
  if (current) await (await current).close();
}

export { schema };

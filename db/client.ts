/**
 * The one database client. Which driver runs depends on DATABASE_URL only:
 *
 * - unset            → PGlite (embedded Postgres) persisted in $DATA_DIR/pglite (default .data/)
 * - `pglite:memory`  → PGlite in memory (tests)
 * - `pglite:/a/path` → PGlite persisted in that folder
 * - a Neon URL       → the Neon serverless driver (WebSocket pool, supports transactions)
 * - any postgres://  → node-postgres pool
 *
 * The client is cached per process, so warm serverless invocations reuse it
 * (create-t3-app does the same). The embedded database belongs to this
 * process alone, so it is migrated when opened; a server database is
 * migrated by `npm run db:migrate`, the local server's start and the
 * Netlify build, never by request handlers racing each other.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { migrateDatabase } from './migrate';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** What a transaction callback receives; the same query API as Database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DriverKind = 'pglite' | 'node-postgres' | 'neon';

export interface DatabaseHandle {
  db: Database;
  kind: DriverKind;
  close(): Promise<void>;
}

export function dataDir(): string {
  return path.resolve(process.env.DATA_DIR ?? '.data');
}

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

export async function openDatabase(url: string | undefined = process.env.DATABASE_URL): Promise<DatabaseHandle> {
  const kind = driverFor(url);

  if (kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    let client: InstanceType<typeof PGlite>;
    if (url === 'pglite:memory') {
      client = new PGlite();
    } else {
      const dir = url ? url.slice('pglite:'.length) : path.join(dataDir(), 'pglite');
      // PGlite needs the parent folder to exist.
      mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
      client = new PGlite(path.resolve(dir));
    }
    const db = drizzle(client, { schema }) as unknown as Database;
    await migrateDatabase(db, kind);
    return { db, kind, close: () => client.close() };
  }

  if (kind === 'neon') {
    const { Pool, neonConfig } = await import('@neondatabase/serverless');
    const { drizzle } = await import('drizzle-orm/neon-serverless');
    if (typeof globalThis.WebSocket === 'undefined') {
      neonConfig.webSocketConstructor = (await import('ws')).default;
    }
    const pool = new Pool({ connectionString: url });
    const db = drizzle(pool, { schema }) as unknown as Database;
    return { db, kind, close: () => pool.end() };
  }

  const pg = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.default.Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', (error) => console.warn('postgres pool error:', error.message));
  const db = drizzle(pool, { schema }) as unknown as Database;
  return { db, kind, close: () => pool.end() };
}

let cached: Promise<DatabaseHandle> | undefined;

/** The process-wide database, opened on first use. */
export async function getDb(): Promise<Database> {
  cached ??= openDatabase().catch((error: unknown) => {
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

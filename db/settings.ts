/**
 * The settings the database client is opened with. db/ never reads the
 * environment itself: the caller hands them down (src/server's config
 * module for the site and the functions; the db:migrate and db:seed
 * commands from their own process).
 */
import path from 'node:path';

export interface DatabaseSettings {
  /** DATABASE_URL, else NETLIFY_DATABASE_URL; unset: the embedded database in `dataDir`. */
  url: string | undefined;
  /** DATA_DIR (default `.data`), resolved: the embedded database, the outbox, the local key file. */
  dataDir: string;
  /** DATABASE_POOL_SIZE (default 10): connections per process on a server database. */
  poolSize: number;
  /** DATABASE_CONNECT_TIMEOUT_MS (default 4000): covers TCP, TLS/WebSocket and authentication. */
  connectTimeoutMs: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS (default 5000): a query without an answer fails, even from a frozen server. */
  statementTimeoutMs: number;
}

type Source = Readonly<Record<string, string | undefined>>;

/** The server database: DATABASE_URL, or Netlify's Neon integration's NETLIFY_DATABASE_URL when that is unset. */
export function databaseUrlFrom(source: Source): string | undefined {
  return source.DATABASE_URL || source.NETLIFY_DATABASE_URL || undefined;
}

/** DATA_DIR, resolved (default `.data`). */
export function dataDirFrom(source: Source): string {
  return path.resolve(source.DATA_DIR ?? '.data');
}

/** The database settings a set of variables describes. */
export function databaseSettingsFrom(source: Source): DatabaseSettings {
  return {
    url: databaseUrlFrom(source),
    dataDir: dataDirFrom(source),
    poolSize: Number(source.DATABASE_POOL_SIZE ?? 10),
    connectTimeoutMs: Number(source.DATABASE_CONNECT_TIMEOUT_MS ?? 4000),
    statementTimeoutMs: Number(source.DATABASE_STATEMENT_TIMEOUT_MS ?? 5000),
  };
}

let provided: (() => DatabaseSettings) | undefined;

/**
 * Where the process-wide database's settings come from, asked each time it
 * is opened (after closeDb, settings may have changed). src/server's config
 * module (env.server.ts) installs itself here when loaded; a command of db/
 * installs its own. The source may throw (a production function without a
 * server database: 503 not-configured), and then nothing is opened.
 */
export function provideDatabaseSettings(source: () => DatabaseSettings): void {
  provided = source;
}

/** The settings of the installed source. */
export function providedDatabaseSettings(): DatabaseSettings {
  if (!provided) throw new Error('no database settings: load src/server/env.server.ts (or call provideDatabaseSettings) first');
  return provided();
}

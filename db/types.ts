/** The database's types, shared by the client and the embedded driver (no import circle between them). */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/**
 * What a query runs on: the process's database or a transaction. drizzle's
 * transaction extends its database class, so a transaction is passed as an
 * Executor without a cast, and `executor.transaction(...)` opens a
 * transaction on the database or a savepoint inside a transaction.
 */
export type Executor = Database;
export type DriverKind = 'pglite' | 'node-postgres' | 'neon';

export interface DatabaseHandle {
  db: Database;
  kind: DriverKind;
  close(): Promise<void>;
}

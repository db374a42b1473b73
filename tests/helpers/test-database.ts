/**
 * A fresh, migrated database per test file, on either driver:
 * PGlite in memory, or a new database on the harness's real Postgres.
 * It becomes the process-wide database (DATABASE_URL), so handlers under
 * test use it exactly as in production.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database } from '../../db/client';
import { closeDb, getDb } from '../../src/server/database.server';
import { settled } from './http';

export type DatabaseKind = 'pglite' | 'postgres';
export const databaseKinds: DatabaseKind[] = ['pglite', 'postgres'];

export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  db: Database;
  /** Closes the process-wide client and drops the database. */
  dispose(): Promise<void>;
}

/** Runs one statement as the harness's superuser. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates an empty database on the real server (no migrations) and returns its URL. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`);
  return { url, drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/**
 * Creates a migrated database on the real server and returns its URL: a copy
 * of the template the harness migrated once (tests/setup/postgres-server.ts).
 */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(`create database ${name} template ${inject('postgresTemplate')}`);
      break;
    } catch (error) {
      // 55006: the template is being copied by another worker's create at this moment.
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
  const url = inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`);
  return { url, drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

export async function useTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  await closeDb();
  let drop = async () => {};
  if (kind === 'postgres') {
    const created = await createPostgresDatabase();
    process.env.DATABASE_URL = created.url;
    drop = created.drop;
  } else {
    process.env.DATABASE_URL = 'pglite:memory';
  }
  const url = process.env.DATABASE_URL;
  const db = await getDb();
  return {
    kind,
    url,
    db,
    async dispose() {
      // Work handlers left running after their answers (emails, waitlist offers) ends before the database does.
      await settled();
      await closeDb();
      delete process.env.DATABASE_URL;
      await drop();
    },
  };
}

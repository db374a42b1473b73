/**
 * Migrations refuse a transaction pooler
 * (docs/decisions/024-migrations-after-bundling-expand-contract.md; any
 * PgBouncer in transaction mode, not only Neon's `-pooler` host), detected
 * by asking the server, with a message naming DATABASE_URL_UNPOOLED; they
 * touch nothing and leak no lock, so the next direct migration runs at
 * once. A session-mode pooler is a session of its own and is accepted.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MigrationError, migrateServerDatabase } from '../../db/migrate';
import { startPgBouncer, type RunningPgBouncer } from '../helpers/pgbouncer';
import { useTestBed } from '../setup/test-bed';

async function admin<T>(fn: (client: pg.Client) => Promise<T>, url = inject('postgresAdminUrl')): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function tables(url: string): Promise<string[]> {
  return admin(async (c) => (await c.query("select table_schema || '.' || table_name as t from information_schema.tables where table_schema in ('public', 'drizzle') order by 1")).rows.map((r) => r.t), url);
}

/** The migration lock held on this test's database (other files migrate their own databases on the same server meanwhile). */
async function migrationLocks(direct: string): Promise<number> {
  return admin(
    async (c) =>
      (await c.query("select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 727001 and database = (select oid from pg_database where datname = current_database())")).rows[0].n,
    direct,
  );
}

describe('migrations through a pooler', () => {
  const bed = useTestBed({ emptyDatabase: true });
  let direct: string;
  let transaction: RunningPgBouncer;
  let session: RunningPgBouncer;

  beforeAll(async () => {
    direct = bed.emptyUrl;
    transaction = await startPgBouncer({ serverUrl: direct, mode: 'transaction', poolSize: 5 });
    session = await startPgBouncer({ serverUrl: direct, mode: 'session' });
  });

  afterAll(async () => {
    await transaction?.stop();
    await session?.stop();
  });

  it('refuse a transaction-mode PgBouncer on another host name, naming DATABASE_URL_UNPOOLED, and change nothing', async () => {
    const error = await migrateServerDatabase(transaction.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/transaction pooler.*DATABASE_URL_UNPOOLED/);
    expect(await tables(direct)).toEqual([]);
    expect(await migrationLocks(direct)).toBe(0);
  });

  it('refuse 5 concurrent runs through it alike; the next direct migration then runs at once', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => migrateServerDatabase(transaction.url).catch((e: unknown) => e)));
    for (const result of results) {
      expect(result).toBeInstanceOf(MigrationError);
      expect((result as Error).message).toMatch(/DATABASE_URL_UNPOOLED/);
    }
    expect(await tables(direct)).toEqual([]);
    expect(await migrationLocks(direct)).toBe(0);
    // A leaked lock would make this wait for it and fail after 2 s.
    await migrateServerDatabase(direct, { lockTimeoutMs: 2000 });
    expect(await tables(direct)).toContain('public.booked_slots');
  });

  it('accept a session-mode pooler (each client keeps its server session)', async () => {
    await migrateServerDatabase(session.url, { lockTimeoutMs: 2000 });
    expect(await migrationLocks(direct)).toBe(0);
  });
});

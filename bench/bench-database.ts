/**
 * A benchmark's own database on the embedded Postgres: created, migrated,
 * its URL returned.
 */
import pg from 'pg';
import { migrateServerDatabase } from '../db/migrate';
import type { RunningPostgres } from '../scripts/embedded-postgres';

export async function migratedBenchDatabase(server: RunningPostgres, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = server.adminUrl.replace(/\/postgres$/, `/${name}`);
  await migrateServerDatabase(url);
  return url;
}

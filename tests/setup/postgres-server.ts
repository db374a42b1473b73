/**
 * Starts a real multi-connection Postgres for the integration tests, so
 * `npm test` needs nothing installed or running beforehand. PGlite
 * serialises everything; concurrency guarantees are proven here.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateServerDatabase } from '../../db/migrate';
import { startEmbeddedPostgres } from '../../scripts/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** A database migrated once, which nobody connects to: a test's migrated database is a copy of it. */
    postgresTemplate: string;
  }
}

/** The migrated template (tests/helpers/test-database.ts copies it). */
const TEMPLATE = 'praxis_migrated_template';

async function admin(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const server = await startEmbeddedPostgres();
  // Migrating every test's database costs each one its own run of every
  // migration; copying a migrated template is a file copy.
  await admin(server.adminUrl, `create database ${TEMPLATE}`);
  await migrateServerDatabase(server.adminUrl.replace(/\/postgres$/, `/${TEMPLATE}`));
  await admin(server.adminUrl, `alter database ${TEMPLATE} with allow_connections false`);
  project.provide('postgresAdminUrl', server.adminUrl);
  project.provide('postgresTemplate', TEMPLATE);
  return () => server.stop();
}

/**
 * Starts a real multi-connection Postgres for the integration tests, so
 * `npm test` needs nothing installed or running beforehand. PGlite
 * serialises everything; concurrency guarantees are proven here.
 */
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../scripts/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startEmbeddedPostgres();
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}

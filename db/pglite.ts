/**
 * The embedded database (PGlite), for local runs and tests only. db/client.ts
 * loads this module by a computed specifier, so Netlify's file tracing never
 * follows it and no function bundle carries PGlite's WASM and data.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import * as schema from './schema';
import type { Database, DatabaseHandle } from './types';
import { migrationsFolder } from './migrate';

/** `pglite:memory`, `pglite:/a/path`, or unset for `<dataDir>/pglite`. The embedded database belongs to this process alone, so it is migrated when opened. */
export async function openEmbeddedDatabase(url: string | undefined, dataDir: string): Promise<DatabaseHandle> {
  let client: PGlite;
  if (url === 'pglite:memory') {
    client = new PGlite();
  } else {
    const dir = url ? url.slice('pglite:'.length) : path.join(dataDir, 'pglite');
    // PGlite needs the parent folder to exist.
    mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
    client = new PGlite(path.resolve(dir));
  }
  const db: Database = drizzle(client, { schema });
  await migrate(db as never, { migrationsFolder });
  return { db, kind: 'pglite', close: () => client.close() };
}

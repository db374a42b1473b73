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

/**
 * In memory, every database a process opens starts as a copy of one freshly
 * migrated database: starting PGlite from scratch (its initdb) takes about a
 * second and a half, from a copy a third of that. Tests open one per file
 * and driver.
 */
let migratedImage: Promise<Blob> | undefined;
function memoryImage(): Promise<Blob> {
  migratedImage ??= (async () => {
    const client = new PGlite();
    try {
      await migrate(drizzle(client, { schema }) as never, { migrationsFolder });
      return await client.dumpDataDir('none');
    } finally {
      await client.close();
    }
  })().catch((error: unknown) => {
    migratedImage = undefined;
    throw error;
  });
  return migratedImage;
}

/** `pglite:memory`, `pglite:/a/path`, or unset for `<dataDir>/pglite`. The embedded database belongs to this process alone, so it is migrated when opened. */
export async function openEmbeddedDatabase(url: string | undefined, dataDir: string): Promise<DatabaseHandle> {
  let client: PGlite;
  if (url === 'pglite:memory') {
    client = new PGlite({ loadDataDir: await memoryImage() });
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

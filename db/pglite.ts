/**
 * The embedded database (PGlite), for local runs and tests only. db/client.ts
 * loads this module by a computed specifier, so Netlify's file tracing never
 * follows it and no function bundle carries PGlite's WASM and data.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import * as schema from './schema';
import type { Database, DatabaseHandle } from './types';
import { migrationsFolder } from './migrate';

/**
 * Every new database a process opens, in memory or in a new folder, starts
 * as a copy of one freshly migrated database: starting PGlite from scratch
 * (its initdb) and migrating takes about five seconds, from a copy half a
 * second. Tests open one per file and driver, each file in a process of
 * its own, so the image is also
 * kept in the system's temporary folder, named by PGlite's version and the
 * migrations' contents: a changed migration or PGlite makes a new one, and
 * processes running at once each read a finished file or make their own.
 */
let migratedImage: Promise<Blob> | undefined;
function migratedImageData(): Promise<Blob> {
  migratedImage ??= (async () => {
    const file = await imageFile();
    try {
      return new Blob([await readFile(file)]);
    } catch {
      // Not made yet (or unreadable): make it.
    }
    const client = new PGlite();
    let image: Blob;
    try {
      await migrate(drizzle(client, { schema }) as never, { migrationsFolder });
      image = await client.dumpDataDir('none');
    } finally {
      await client.close();
    }
    // Written beside its final name, then renamed: another process never reads half a file.
    const partial = `${file}.${randomBytes(6).toString('hex')}`;
    try {
      await writeFile(partial, Buffer.from(await image.arrayBuffer()));
      await rename(partial, file);
      await removeStaleImages(file);
    } catch {
      await rm(partial, { force: true });
    }
    return image;
  })().catch((error: unknown) => {
    migratedImage = undefined;
    throw error;
  });
  return migratedImage;
}

const IMAGE_NAME = /^praxis-pglite-[0-9a-f]{16}\.tar$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Images of other migrations (about 40 MB each) untouched for a day: an
 * older checkout that still wants one makes it again.
 */
export async function removeStaleImages(current: string, now = Date.now()): Promise<void> {
  const dir = path.dirname(current);
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    if (!IMAGE_NAME.test(name) || file === current) continue;
    const info = await stat(file).catch(() => null);
    if (info && now - info.mtimeMs > DAY_MS) await rm(file, { force: true });
  }
}

/** `<tmp>/praxis-pglite-<hash of PGlite's version and every migration file>.tar`. */
async function imageFile(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const packageDir = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const hash = createHash('sha256').update(version);
  const files = (await readdir(migrationsFolder, { recursive: true })).map(String).sort();
  for (const name of files) {
    const content = await readFile(path.join(migrationsFolder, name)).catch(() => null); // a folder
    if (content) hash.update(`\0${name}\0`).update(content);
  }
  return path.join(os.tmpdir(), `praxis-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** `pglite:memory`, `pglite:/a/path`, or unset for `<dataDir>/pglite`. The embedded database belongs to this process alone, so it is migrated when opened. */
export async function openEmbeddedDatabase(url: string | undefined, dataDir: string): Promise<DatabaseHandle> {
  let client: PGlite;
  if (url === 'pglite:memory') {
    client = new PGlite({ loadDataDir: await migratedImageData() });
  } else {
    const dir = path.resolve(url ? url.slice('pglite:'.length) : path.join(dataDir, 'pglite'));
    // PGlite needs the parent folder to exist.
    mkdirSync(path.dirname(dir), { recursive: true });
    // A new database on disk starts as a copy of the migrated image too (PGlite
    // unpacks it into the folder), an existing one as it is.
    const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
    client = new PGlite(dir, fresh ? { loadDataDir: await migratedImageData() } : {});
  }
  const db: Database = drizzle(client, { schema });
  await migrate(db as never, { migrationsFolder });
  return { db, kind: 'pglite', close: () => client.close() };
}

/**
 * In-memory embedded databases start from one migrated image per machine
 * (db/pglite.ts): the image is written once to the temporary folder, named
 * by PGlite's version and the migrations, and a new process starts from it
 * instead of migrating again.
 */
import { mkdtemp, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';

async function images(): Promise<Map<string, number>> {
  const names = (await readdir(os.tmpdir())).filter((n) => /^praxis-pglite-[0-9a-f]{16}\.tar$/.test(n));
  return new Map(await Promise.all(names.map(async (n) => [n, (await stat(path.join(os.tmpdir(), n))).mtimeMs] as const)));
}

describe('the migrated PGlite image', () => {
  it('is kept in the temporary folder and a new process starts from it, migrated, without writing it again', async () => {
    const { openEmbeddedDatabase } = await import('../../db/pglite');
    const first = await openEmbeddedDatabase('pglite:memory', os.tmpdir());
    await first.close();
    const before = await images();
    expect(before.size).toBeGreaterThan(0);

    // A fresh copy of the module: what another test file's process sees.
    vi.resetModules();
    const fresh = await import('../../db/pglite');
    const second = await fresh.openEmbeddedDatabase('pglite:memory', os.tmpdir());
    try {
      const applied = await second.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const rows = (applied as unknown as { rows: Array<{ n: number }> }).rows;
      const migrations = (await readdir(path.resolve(import.meta.dirname, '../../db/migrations'))).filter((f) => f.endsWith('.sql'));
      expect(rows[0]!.n).toBe(migrations.length);
      // Each database is its own copy: a table made here is not in the next one.
      await second.db.execute(sql`create table only_here (id int)`);
      const third = await fresh.openEmbeddedDatabase('pglite:memory', os.tmpdir());
      const found = await third.db.execute(sql`select to_regclass('only_here') as t`);
      expect((found as unknown as { rows: Array<{ t: string | null }> }).rows[0]!.t).toBeNull();
      await third.close();
    } finally {
      await second.close();
    }
    // Nothing written again and no new image (another process may remove a stale image of other migrations meanwhile).
    for (const [name, mtime] of await images()) expect(before.get(name), name).toBe(mtime);
  });
});

describe('a database in a folder', () => {
  it('starts from the migrated image when the folder is new, and opens as it is (its data kept) when it exists', async () => {
    // The real PGlite, with the options each database was opened with recorded.
    const opened: Array<{ loadDataDir?: unknown }> = [];
    vi.resetModules();
    vi.doMock('@electric-sql/pglite', async (importOriginal) => {
      const real = await importOriginal<typeof import('@electric-sql/pglite')>();
      class RecordingPGlite extends real.PGlite {
        constructor(dir: string, options: { loadDataDir?: unknown } = {}) {
          opened.push(options);
          super(dir, options as never);
        }
      }
      return { ...real, PGlite: RecordingPGlite };
    });
    try {
      const { openEmbeddedDatabase } = await import('../../db/pglite');
      const dir = await mkdtemp(path.join(os.tmpdir(), 'pglite-folder-'));
      const first = await openEmbeddedDatabase(`pglite:${path.join(dir, 'db')}`, dir);
      await first.db.execute(sql`create table kept (id int)`);
      await first.db.execute(sql`insert into kept values (7)`);
      const applied = await first.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const migrations = (await readdir(path.resolve(import.meta.dirname, '../../db/migrations'))).filter((f) => f.endsWith('.sql'));
      expect((applied as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(migrations.length);
      await first.close();
      expect(opened).toHaveLength(1);
      expect(opened[0]!.loadDataDir).toBeInstanceOf(Blob);

      const again = await openEmbeddedDatabase(`pglite:${path.join(dir, 'db')}`, dir);
      try {
        expect(opened[1]!.loadDataDir).toBeUndefined();
        const kept = await again.db.execute(sql`select id from kept`);
        expect((kept as unknown as { rows: Array<{ id: number }> }).rows).toEqual([{ id: 7 }]);
      } finally {
        await again.close();
      }
    } finally {
      vi.doUnmock('@electric-sql/pglite');
      vi.resetModules();
    }
  });
});

describe('stale images', () => {
  it('removes images of other migrations untouched for a day, and keeps the current one, fresh ones and other files', async () => {
    const { removeStaleImages } = await import('../../db/pglite');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pglite-images-'));
    const name = (n: number) => path.join(dir, `praxis-pglite-${String(n).repeat(16)}.tar`);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    for (const file of [name(1), name(2), name(3), path.join(dir, 'other.tar')]) await writeFile(file, 'x');
    for (const file of [name(1), name(2), path.join(dir, 'other.tar')]) await utimes(file, twoDaysAgo, twoDaysAgo);
    await removeStaleImages(name(1));
    expect((await readdir(dir)).sort()).toEqual(['other.tar', path.basename(name(1)), path.basename(name(3))].sort());
  });
});

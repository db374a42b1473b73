/**
 * The one test bed of the integration tests: called once in a file (or in a
 * `describe.each(databaseKinds)` block), it registers the start-up and the
 * teardown every such file needs, in one order:
 *
 *   start-up  fake clock (Date only) → temp folders (DATA_DIR, tempDir) → env → databases
 *   teardown  real timers → databases closed and dropped → temp folders removed → env put back
 *
 * Hooks the file registers after the call run after the bed's start-up and
 * before its teardown (vitest runs after-hooks in reverse), so a file's own
 * beforeAll already sees the database, the clock and the env.
 *
 * Databases: `database` is the process-wide one the handlers under test use
 * (PGlite or real Postgres, `databaseKinds` runs a block on each);
 * `separateDatabase` (migrated) and `emptyDatabase` are for a child server, a
 * proxy or a pooler in front; `scratchDatabase` is for migration tests.
 *
 * `perTest` gives every test its own data dir and env instead (vi.stubEnv,
 * undone after each test), for files whose tests must not see each other's
 * outbox or keys; with `database` also its own database.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { Database } from '../../db/client';
import { closeDb, getDb } from '../../src/server/database.server';
import { setEnv } from '../helpers/env';
import { settled } from '../helpers/http';
import { useScratchDatabase } from '../helpers/migration-db';
import { createEmptyDatabase, createPostgresDatabase, useTestDatabase, type DatabaseKind, type TestDatabase } from '../helpers/test-database';

export { createPostgresDatabase, databaseKinds, type DatabaseKind } from '../helpers/test-database';

export interface TestBedOptions {
  /** A fresh, migrated database of this kind, the process-wide one (DATABASE_URL) while the file runs. */
  database?: DatabaseKind;
  /**
   * PGlite in `<dataDir>/pglite` instead of in memory, for tests that read
   * what the database wrote to disk.
   */
  pgliteOnDisk?: boolean;
  /**
   * A migrated database on the harness's real Postgres that this process does
   * not use itself (a child server's, or one behind a proxy), dropped afterwards.
   */
  separateDatabase?: boolean;
  /** An empty database (no migrations) on the harness's real Postgres, dropped afterwards. */
  emptyDatabase?: boolean;
  /**
   * An empty database on the harness's real Postgres with a client of its
   * own, for testing a committed migration over the data of the release
   * before (see tests/helpers/migration-db.ts), dropped afterwards.
   */
  scratchDatabase?: boolean;
  /** Fakes Date (only Date) at this instant from the start; tests move it with vi.setSystemTime. */
  now?: Date;
  /** A temp folder (name prefix) as DATA_DIR for the whole file: outbox, local keys, the embedded database. */
  dataDir?: string;
  /** A temp folder (name prefix) for the whole file that is not DATA_DIR (a site root, say), removed afterwards. */
  tempDir?: string;
  /** Environment for the whole file, set before the database opens; each variable put back afterwards. */
  env?: Record<string, string>;
  /**
   * For every test: a fresh temp data dir (name prefix) and stubbed env,
   * undone after it; with `database`, a fresh database too.
   */
  perTest?: { dataDir: string; env?: Record<string, string>; database?: DatabaseKind };
}

type ScratchDatabase = ReturnType<typeof useScratchDatabase>;

export interface TestBed {
  readonly kind: DatabaseKind;
  readonly url: string;
  readonly db: Database;
  /** The data dir: the file's, or with `perTest` the running test's. */
  readonly dataDir: string;
  /** The URL of the `emptyDatabase`. */
  readonly emptyUrl: string;
  /** The URL of the `separateDatabase`. */
  readonly separateUrl: string;
  /** The `scratchDatabase`: its client and the committed migrations around one. */
  readonly scratch: ScratchDatabase;
  /** The file's `tempDir`. */
  readonly tempDir: string;
  /** `<dataDir>/outbox`, where the local mailer writes. */
  readonly outbox: string;
}

async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

function requireDir(dir: string | undefined): string {
  if (!dir) throw new Error('pgliteOnDisk needs a dataDir');
  return dir;
}

async function pgliteOnDisk(folder: string): Promise<TestDatabase> {
  await closeDb();
  const url = `pglite:${folder}`;
  process.env.DATABASE_URL = url;
  const db = await getDb();
  return {
    kind: 'pglite',
    url,
    db,
    async dispose() {
      await settled();
      await closeDb();
      delete process.env.DATABASE_URL;
    },
  };
}

export function useTestBed(options: TestBedOptions): TestBed {
  const scratch = options.scratchDatabase ? useScratchDatabase() : undefined;
  let database: TestDatabase | undefined;
  let fileDir: string | undefined;
  let otherDir: string | undefined;
  let separate: { url: string; drop(): Promise<void> } | undefined;
  let empty: { url: string; drop(): Promise<void> } | undefined;
  let testDir: string | undefined;
  let restoreEnv: (() => void) | undefined;

  beforeAll(async () => {
    if (options.now) {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(options.now);
    }
    if (options.dataDir) fileDir = await tempDir(options.dataDir);
    if (options.tempDir) otherDir = await tempDir(options.tempDir);
    const env = { ...(fileDir ? { DATA_DIR: fileDir } : {}), ...options.env };
    if (Object.keys(env).length > 0) restoreEnv = setEnv(env);
    if (options.database === 'pglite' && options.pgliteOnDisk) database = await pgliteOnDisk(path.join(requireDir(fileDir), 'pglite'));
    else if (options.database) database = await useTestDatabase(options.database);
    if (options.separateDatabase) separate = await createPostgresDatabase();
    if (options.emptyDatabase) empty = await createEmptyDatabase();
  });

  // Work a handler left running after its answer (the email outbox's delivery, docs/decisions/035)
  // belongs to its test: it ends before the next test's set-up clears folders or rows.
  beforeEach(async () => {
    await settled();
  });

  afterAll(async () => {
    await settled();
    vi.useRealTimers();
    await database?.dispose();
    await separate?.drop();
    await empty?.drop();
    if (fileDir) await rm(fileDir, { recursive: true, force: true });
    if (otherDir) await rm(otherDir, { recursive: true, force: true });
    restoreEnv?.();
  });

  const perTest = options.perTest;
  if (perTest) {
    beforeEach(async () => {
      testDir = await tempDir(perTest.dataDir);
      vi.stubEnv('DATA_DIR', testDir);
      for (const [name, value] of Object.entries(perTest.env ?? {})) vi.stubEnv(name, value);
      if (perTest.database) database = await useTestDatabase(perTest.database);
    });
    afterEach(async () => {
      await settled();
      vi.unstubAllEnvs();
      if (testDir) await rm(testDir, { recursive: true, force: true });
      testDir = undefined;
      if (perTest.database) {
        await database?.dispose();
        database = undefined;
      }
    });
  }

  const opened = (): TestDatabase => {
    if (!database) throw new Error(options.database || options.perTest?.database ? 'the test bed opens its database before the tests' : 'this test bed has no database');
    return database;
  };
  const dir = (): string => {
    const current = testDir ?? fileDir;
    if (!current) throw new Error('this test bed has no data dir (or it is used outside a test)');
    return current;
  };
  return {
    get kind() {
      return opened().kind;
    },
    get url() {
      return opened().url;
    },
    get db() {
      return opened().db;
    },
    get dataDir() {
      return dir();
    },
    get emptyUrl() {
      if (!empty) throw new Error('this test bed has no empty database (or it is used before its start-up)');
      return empty.url;
    },
    get separateUrl() {
      if (!separate) throw new Error('this test bed has no separate database (or it is used before its start-up)');
      return separate.url;
    },
    get scratch() {
      if (!scratch) throw new Error('this test bed has no scratch database');
      return scratch;
    },
    get tempDir() {
      if (!otherDir) throw new Error('this test bed has no tempDir (or it is used before its start-up)');
      return otherDir;
    },
    get outbox() {
      return path.join(dir(), 'outbox');
    },
  };
}

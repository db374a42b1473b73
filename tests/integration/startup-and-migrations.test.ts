/**
 * docs/decisions/008-production-fail-closed.md: `npm run serve` with an
 * unreachable or frozen database exits non-zero within 15 s with one clear
 * line; migrations are idempotent, wait for the lock at most their lock
 * timeout, go through the unpooled URL, and on Netlify run only in the
 * production context, failing clearly when a production build has no server
 * database.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MigrationError, migrateServerDatabase, migrationUrlFrom } from '../../db/migrate';
import { freePort } from '../../scripts/embedded-postgres';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { useTestBed } from '../setup/test-bed';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(script: string, env: Record<string, string | undefined>, timeoutMs = 30_000): Promise<Run> {
  const start = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, DATABASE_URL: '', NETLIFY_DATABASE_URL: '', DATABASE_URL_UNPOOLED: '', NETLIFY_DATABASE_URL_UNPOOLED: '', NETLIFY: '', CONTEXT: '', ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ms: performance.now() - start });
    }),
  );
}

async function appliedCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
    return res.rows[0].n;
  } finally {
    await client.end();
  }
}

describe('npm run serve with a database it cannot reach', () => {
  let proxy: FaultProxy;
  const bed = useTestBed({ separateDatabase: true });
  beforeAll(async () => {
    const target = new URL(bed.separateUrl);
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
    proxy.freeze();
  });
  afterAll(async () => {
    await proxy.close();
  });

  /**
   * How long Node takes to load the server before it does anything: a start
   * refused by its first check (a JWT secret too short: readEnv throws before
   * any database is tried), timed right before the run it is subtracted from.
   * On a quiet machine about 1.5 s; on one with several times its cores' work
   * waiting, over 15 s, which is the machine, not the server waiting.
   */
  async function startupMs(): Promise<number> {
    const refused = await run('scripts/serve.ts', { JWT_SECRET: 'short', DATABASE_URL: 'postgres://praxis:pw@127.0.0.1:1/praxis', PORT: String(await freePort()) });
    expect(refused.code, refused.stderr).not.toBe(0);
    expect(refused.stderr).not.toMatch(/cannot reach the database/);
    return refused.ms;
  }

  it('exits non-zero within 15 s with one clear line when nothing listens', async () => {
    const port = await freePort();
    const startup = await startupMs();
    const result = await run('scripts/serve.ts', { DATABASE_URL: `postgres://praxis:secret-pw@127.0.0.1:${port}/praxis`, PORT: String(await freePort()) });
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.ms - startup).toBeLessThan(15_000);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^cannot start: cannot reach the database to migrate \(ECONNREFUSED\)$/)]);
    expect(result.stderr + result.stdout).not.toContain('secret-pw');
  }, 60_000);

  it('exits non-zero within 15 s with one clear line when the database is frozen', async () => {
    const frozen = new URL(bed.separateUrl);
    frozen.port = String(proxy.port);
    const startup = await startupMs();
    const result = await run('scripts/serve.ts', { DATABASE_URL: frozen.href, PORT: String(await freePort()) });
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.ms - startup).toBeLessThan(15_000);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^cannot start: cannot reach the database to migrate/)]);
  }, 60_000);
});

describe('migrations', () => {
  const bed = useTestBed({ separateDatabase: true }); // already migrated once

  it('are idempotent: running them again applies nothing and fails nothing', async () => {
    const before = await appliedCount(bed.separateUrl);
    expect(before).toBeGreaterThan(0);
    await migrateServerDatabase(bed.separateUrl);
    await migrateServerDatabase(bed.separateUrl);
    expect(await appliedCount(bed.separateUrl)).toBe(before);
  });

  it('give up with a clear error after the lock timeout instead of hanging', async () => {
    const holder = new pg.Client({ connectionString: bed.separateUrl });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(727001)');
      const start = performance.now();
      const error = await migrateServerDatabase(bed.separateUrl, { lockTimeoutMs: 1000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(/migration lock/);
      expect(performance.now() - start).toBeLessThan(5000);
    } finally {
      await holder.end();
    }
    // Once the holder is gone, migrating works again.
    await migrateServerDatabase(bed.separateUrl, { lockTimeoutMs: 1000 });
  });

  it('use the unpooled URL, and refuse a Neon pooled one', () => {
    expect(migrationUrlFrom({ DATABASE_URL: 'postgres://a/pooled', DATABASE_URL_UNPOOLED: 'postgres://a/direct' })).toBe('postgres://a/direct');
    expect(migrationUrlFrom({ NETLIFY_DATABASE_URL: 'postgres://a/pooled', NETLIFY_DATABASE_URL_UNPOOLED: 'postgres://a/direct' })).toBe('postgres://a/direct');
    expect(migrationUrlFrom({ DATABASE_URL: 'postgres://u:p@db.internal/praxis' })).toBe('postgres://u:p@db.internal/praxis');
    expect(() => migrationUrlFrom({ DATABASE_URL: 'postgres://u:p@ep-cool-1-pooler.eu-central-1.aws.neon.tech/neondb' })).toThrow(/DATABASE_URL_UNPOOLED/);
    expect(migrationUrlFrom({})).toBeUndefined();
  });

  describe('npm run db:migrate on Netlify', () => {
    it('skips deploy previews and branch deploys (they never migrate the production database)', async () => {
      for (const context of ['deploy-preview', 'branch-deploy']) {
        const result = await run('db/migrate-cli.ts', { NETLIFY: 'true', CONTEXT: context, DATABASE_URL_UNPOOLED: 'postgres://u:p@127.0.0.1:1/never' });
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(`migrations skipped in the ${context} context`);
      }
    }, 60_000);

    it('fails a production build without a server database, with a clear message', async () => {
      const result = await run('db/migrate-cli.ts', { NETLIFY: 'true', CONTEXT: 'production' });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(/^db:migrate failed: no server database: set DATABASE_URL and DATABASE_URL_UNPOOLED/);
    }, 30_000);

    it('migrates production through the unpooled URL', async () => {
      const result = await run('db/migrate-cli.ts', { NETLIFY: 'true', CONTEXT: 'production', NETLIFY_DATABASE_URL: 'postgres://u:p@127.0.0.1:1/pooled-never-used', NETLIFY_DATABASE_URL_UNPOOLED: bed.separateUrl });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('migrations applied');
    }, 30_000);
  });
});

/**
 * docs/decisions/008-production-fail-closed.md: with either server driver
 * (node-postgres, and the Neon driver over a local WebSocket proxy), a
 * database that is frozen, down or unreachable answers 503
 * database-unavailable within 10 s, never 500 and never a hang, and an idle
 * connection the server terminates does not kill the process (vitest fails
 * the run on an uncaught 'error' event); the next request succeeds.
 */
import { neonConfig } from '@neondatabase/serverless';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import appointmentTypes from '../../netlify/functions/appointment-types';
import { sql } from 'drizzle-orm';
import { closeDb, getDatabaseHandle, getDb } from '../../src/server/database.server';
import { isDatabaseUnavailable } from '../../db/errors';
import { freePort } from '../../scripts/embedded-postgres';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { call } from '../helpers/http';
import { startNeonWsProxy, type NeonWsProxy } from '../helpers/neon-ws-proxy';
import { useTestBed } from '../setup/test-bed';

/** Terminates every other connection to the database and waits until their backends have exited; answers how many. */
async function terminateOthers(dbName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  try {
    // In the select list, so only the rows the filter kept are terminated.
    const res = await admin.query<{ pid: number; terminated: boolean }>(
      'select pid, pg_terminate_backend(pid) as terminated from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [dbName],
    );
    const pids = res.rows.filter((r) => r.terminated).map((r) => r.pid);
    // pg_terminate_backend only signals: the connection is gone once the backend is.
    await vi.waitFor(async () => expect((await admin.query('select pid from pg_stat_activity where pid = any($1::int[])', [pids])).rows).toEqual([]), {
      timeout: 30_000,
      interval: 20,
    });
    return pids.length;
  } finally {
    await admin.end();
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

const types = () => call(appointmentTypes, '/api/appointment-types');

describe.each(['node-postgres', 'neon'] as const)('database faults with the %s driver', (driver) => {
  const bed = useTestBed({ separateDatabase: true });
  let proxy: FaultProxy;
  let ws: NeonWsProxy | undefined;
  let dbName: string;

  beforeAll(async () => {
    const target = new URL(bed.separateUrl);
    dbName = target.pathname.slice(1);
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
    const proxied = new URL(bed.separateUrl);
    proxied.port = String(proxy.port);
    if (driver === 'neon') {
      // The driver is chosen by a Neon host name, as in production; the test
      // configures the library itself (plain WebSocket to a local proxy that
      // forwards to the fault proxy). tests/deploy runs its production settings.
      ws = await startNeonWsProxy();
      proxied.hostname = 'ep-faults-000001.eu-central-1.aws.neon.tech';
      const proxyAddress = ws.address;
      Object.assign(neonConfig, {
        webSocketConstructor: WebSocket,
        wsProxy: (_host: string, port: number) => `${proxyAddress}/v2?address=127.0.0.1:${port}`,
        useSecureWebSocket: false,
        pipelineConnect: false,
      });
    }
    await closeDb();
    vi.stubEnv('DATABASE_URL', proxied.href);
    // The real defaults: the 10 s bound must hold without test tuning.
    vi.stubEnv('DATABASE_CONNECT_TIMEOUT_MS', undefined);
    vi.stubEnv('DATABASE_STATEMENT_TIMEOUT_MS', undefined);
  });

  afterAll(async () => {
    await closeDb();
    Object.assign(neonConfig, { webSocketConstructor: undefined, wsProxy: undefined, useSecureWebSocket: undefined, pipelineConnect: undefined });
    vi.unstubAllEnvs();
    await ws?.close();
    await proxy.close();
  });

  it('uses the driver under test', async () => {
    expect((await types()).status).toBe(200);
    expect((await getDatabaseHandle()).kind).toBe(driver);
  });

  it('survives an idle connection the server terminates; the next request succeeds', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect((await types()).status).toBe(200);
    expect(await terminateOthers(dbName)).toBeGreaterThan(0);
    await vi.waitFor(() => expect(warn.mock.calls.flat().join(' ')).toMatch(/database connection dropped/), { timeout: 30_000, interval: 20 });
    const res = await types();
    expect(res.status).toBe(200);
    warn.mockRestore();
  });

  it('survives a connection terminated in the middle of a transaction, between two statements', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const db = await getDb();
    const outcome = await db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        expect(await terminateOthers(dbName)).toBeGreaterThan(0);
        await tx.execute(sql`select 1`);
      })
      .then(
        () => 'committed',
        (error: unknown) => (isDatabaseUnavailable(error) ? 'unavailable' : `other: ${String(error)}`),
      );
    expect(outcome).toBe('unavailable');
    expect((await types()).status).toBe(200);
    warn.mockRestore();
  });

  it('answers 503 database-unavailable within 10 s when the database is frozen, and recovers', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect((await types()).status).toBe(200);
    proxy.freeze();
    const { value: res, ms } = await timed(types);
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ type: 'database-unavailable', status: 503 });
    expect(ms).toBeLessThan(10_000);
    expect(error.mock.calls.flat().join(' ')).toMatch(/database unavailable/);
    await proxy.heal();
    expect((await types()).status).toBe(200);
    error.mockRestore();
  });

  it('answers 503 database-unavailable within 10 s when the database goes down, and recovers', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect((await types()).status).toBe(200);
    await proxy.down();
    const { value: res, ms } = await timed(types);
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ type: 'database-unavailable' });
    expect(ms).toBeLessThan(10_000);
    await proxy.heal();
    expect((await types()).status).toBe(200);
    error.mockRestore();
    warn.mockRestore();
  });

  it('answers 503 database-unavailable with Retry-After when every pooled connection is busy, within the connect timeout, and serves again once one is free', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await closeDb();
    vi.stubEnv('DATABASE_POOL_SIZE', '1');
    try {
      const db = await getDb();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const busy = new Promise<void>((resolve) => (holding = resolve));
      // The pool's one connection, held by a transaction that waits (a slow request in a rush).
      const transaction = db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        holding();
        await held;
      });
      await busy;
      const { value: res, ms } = await timed(types);
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ type: 'database-unavailable', status: 503 });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // The wait is the connect timeout (default 4 s), far below a function's 10 s: never a hang.
      expect(ms).toBeLessThan(10_000);
      expect(error.mock.calls.flat().join(' ')).toMatch(/database unavailable/);
      release();
      await transaction;
      expect((await types()).status).toBe(200);
    } finally {
      await closeDb();
      vi.stubEnv('DATABASE_POOL_SIZE', undefined);
      error.mockRestore();
    }
  });

  it('answers 503 database-unavailable within 10 s when the database is unreachable from the start', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await closeDb();
    const unreachable = new URL(bed.separateUrl);
    unreachable.port = String(await freePort());
    vi.stubEnv('DATABASE_URL', unreachable.href);
    const { value: res, ms } = await timed(types);
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ type: 'database-unavailable' });
    expect(ms).toBeLessThan(10_000);
    await closeDb();
    error.mockRestore();
  });
});

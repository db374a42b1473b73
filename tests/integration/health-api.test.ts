/**
 * GET /api/health (docs/decisions/045-operations.md): each check made to
 * fail on its own (the job's heartbeat aged or failed, the outbox stuck,
 * a wrong data key, migrations behind, the mail service unconfigured, the
 * database frozen or gone), 503 `degraded` each time, and nothing in any
 * answer but the allowed words. The probe never writes, never caches.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { emailOutbox } from '../../db/schema';
import health, { config } from '../../netlify/functions/health';
import { parseKeyRing } from '../../src/server/appointment-contact/keys.server';
import { closeDb } from '../../src/server/database.server';
import { prepareEmail } from '../../src/server/email/queue.server';
import { writeHeartbeat } from '../../src/server/operations/heartbeat.server';
import { expectScheduledJob } from '../../src/server/operations/watch.server';
import { everyTableAsText } from '../helpers/at-rest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed, type TestBed } from '../setup/test-bed';

const NOW = new Date('2030-03-04T10:00:00Z');
const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
const ALLOWED_WORDS = new Set(['status', 'ok', 'degraded', 'checks', 'database', 'migrations', 'job', 'outbox', 'keys', 'mail', 'late', 'failing']);
const ALL_OK = { database: 'ok', migrations: 'ok', job: 'ok', outbox: 'ok', keys: 'ok', mail: 'ok' };

const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

/** The answer, after checking it holds nothing but the allowed words, the right status and no-store. */
async function probe() {
  const res = await call(health, '/api/health');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect(new Set(res.text.match(/[A-Za-z0-9_-]+/g))).toSatisfy((words: Set<string>) => [...words].every((w) => ALLOWED_WORDS.has(w)));
  expect(Object.keys(res.json)).toEqual(['status', 'checks']);
  expect(Object.keys(res.json.checks).sort()).toEqual(Object.keys(ALL_OK).sort());
  expect(res.status).toBe(res.json.status === 'ok' ? 200 : 503);
  return res.json as { status: 'ok' | 'degraded'; checks: Record<string, string> };
}

async function queueSealed(t: TestBed, key: string, createdAt: Date, overrides: Partial<typeof emailOutbox.$inferInsert> = {}) {
  const prepared = prepareEmail({ message: { to: 'x@example.org', subject: 's', text: 't', html: '<p>t</p>' }, kind: 'booking-confirmation', audience: 'patient' }, parseKeyRing(key));
  await t.db.insert(emailOutbox).values({ ...prepared, createdAt, nextAttemptAt: createdAt, ...overrides });
}

describe.each(databaseKinds)('GET /api/health on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'health-', env: { DATA_ENCRYPTION_KEY: KEY_A } });

  beforeEach(async () => {
    await t.db.delete(emailOutbox);
    await writeHeartbeat(t.db, { ranAt: minutesAgo(1), outcome: 'ok', failedSteps: [], durationMs: 120 });
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.stubEnv('DATA_ENCRYPTION_KEY', KEY_A);
  });
  afterAll(() => vi.unstubAllEnvs());

  it('is routed at /api/health and answers 200 ok when all is well', async () => {
    expect(config.path).toBe('/api/health');
    await queueSealed(t, KEY_A, minutesAgo(2), { status: 'sent' });
    expect(await probe()).toEqual({ status: 'ok', checks: ALL_OK });
  });

  it('HEAD answers the same status without a body; other methods 405', async () => {
    const head = await call(health, '/api/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await call(health, '/api/health', { method: 'POST', body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it.each([
    ['ran 4 minutes ago', 4, 'ok', 'late'],
    ['ran 6 minutes ago', 6, 'ok', 'failing'],
    ['failed a minute ago', 1, 'failed', 'failing'],
  ] as const)('the job: its heartbeat %s → %s', async (_name, minutes, outcome, expected) => {
    await writeHeartbeat(t.db, { ranAt: minutesAgo(minutes), outcome, failedSteps: outcome === 'failed' ? ['delivery'] : [], durationMs: 10 });
    expect(await probe()).toEqual({ status: 'degraded', checks: { ...ALL_OK, job: expected } });
  });

  it('the job: never ran → failing', async () => {
    await t.db.execute(sql`delete from job_heartbeat`);
    expect((await probe()).checks).toEqual({ ...ALL_OK, job: 'failing' });
  });

  it('the outbox: a message refused for 16 minutes is late, for over an hour failing; HEALTH_OUTBOX_MAX_AGE_MINUTES moves the limit', async () => {
    await queueSealed(t, KEY_A, minutesAgo(16), { attempts: 3, nextAttemptAt: new Date(NOW.getTime() + 10 * 60_000) });
    expect(await probe()).toEqual({ status: 'degraded', checks: { ...ALL_OK, outbox: 'late' } });
    vi.stubEnv('HEALTH_OUTBOX_MAX_AGE_MINUTES', '30');
    expect((await probe()).checks.outbox).toBe('ok');
    vi.stubEnv('HEALTH_OUTBOX_MAX_AGE_MINUTES', '');
    await queueSealed(t, KEY_A, minutesAgo(61), { channel: 'sms', attempts: 5 });
    expect(await probe()).toEqual({ status: 'degraded', checks: { ...ALL_OK, outbox: 'failing' } });
  });

  it('the outbox: a message held back on purpose (never tried, due later) does not count until it is due', async () => {
    await queueSealed(t, KEY_A, minutesAgo(300), { channel: 'sms', nextAttemptAt: new Date(NOW.getTime() + 60 * 60_000) });
    expect((await probe()).checks.outbox).toBe('ok');
  });

  it('the keys: a data key that does not open the newest sealed row → failing', async () => {
    await queueSealed(t, KEY_A, minutesAgo(3), { status: 'sent' });
    vi.stubEnv('DATA_ENCRYPTION_KEY', KEY_B);
    expect(await probe()).toEqual({ status: 'degraded', checks: { ...ALL_OK, keys: 'failing' } });
    // The old key kept after the new one (rotation) opens it again.
    vi.stubEnv('DATA_ENCRYPTION_KEY', `${KEY_B},${KEY_A}`);
    expect((await probe()).checks.keys).toBe('ok');
  });

  it('the migrations: a database behind this build → failing', async () => {
    const newest = sql`(select max(created_at) from drizzle.__drizzle_migrations)`;
    await t.db.execute(sql`update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = ${newest}`);
    try {
      expect(await probe()).toEqual({ status: 'degraded', checks: { ...ALL_OK, migrations: 'failing' } });
    } finally {
      await t.db.execute(sql`update drizzle.__drizzle_migrations set created_at = created_at + 1 where created_at = ${newest}`);
    }
    expect((await probe()).status).toBe('ok');
  });

  it('reads only: every table is as it was, even with the watch on and the job stale', async () => {
    expectScheduledJob(true);
    try {
      await writeHeartbeat(t.db, { ranAt: minutesAgo(30), outcome: 'ok', failedSteps: [], durationMs: 1 });
      await queueSealed(t, KEY_A, minutesAgo(90), { attempts: 4 });
      const before = await everyTableAsText(t.db);
      expect((await probe()).status).toBe('degraded');
      await settled();
      expect(await everyTableAsText(t.db)).toBe(before);
    } finally {
      expectScheduledJob(null);
    }
  });
});

describe('GET /api/health in production, on a server database', () => {
  const t = useTestBed({ database: 'postgres', now: NOW, dataDir: 'health-prod-' });
  const production = {
    APP_ENV: 'production',
    JWT_SECRET: 'x'.repeat(40),
    MAIL_FROM: 'Praxis <praxis@example.org>',
    PRACTICE_EMAIL: 'praxis@example.org',
    SITE_URL: 'https://praxis.example',
    DATA_ENCRYPTION_KEY: KEY_A,
    POSTMARK_SERVER_TOKEN: 'token',
  };
  beforeEach(async () => {
    for (const [name, value] of Object.entries(production)) vi.stubEnv(name, value);
    await writeHeartbeat(t.db, { ranAt: minutesAgo(1), outcome: 'ok', failedSteps: [], durationMs: 1 });
  });
  afterEach(() => vi.unstubAllEnvs());

  it('answers ok when configured', async () => {
    expect(await probe()).toEqual({ status: 'ok', checks: ALL_OK });
  });

  it('the mail service not configured → mail failing (the probe still answers, where every other route says not-configured)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubEnv('POSTMARK_SERVER_TOKEN', '');
    expect(await probe()).toEqual({ status: 'degraded', checks: { ...ALL_OK, mail: 'failing' } });
    // Logged by the variable's name only.
    expect(error.mock.calls.flat().join(' ')).toMatch(/POSTMARK_SERVER_TOKEN/);
    error.mockClear();
  });

  it('no data key in production → keys failing', async () => {
    vi.stubEnv('DATA_ENCRYPTION_KEY', '');
    expect(await probe()).toEqual({ status: 'degraded', checks: { ...ALL_OK, keys: 'failing' } });
  });

  describe('the database frozen or gone', () => {
    let proxy: FaultProxy;
    beforeAll(async () => {
      const target = new URL(t.url);
      proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
    });
    beforeEach(async () => {
      const proxied = new URL(t.url);
      proxied.port = String(proxy.port);
      await closeDb();
      vi.stubEnv('DATABASE_URL', proxied.href);
      // Only the probe's own 2-second limit can end the wait: the driver would wait a minute.
      vi.stubEnv('DATABASE_CONNECT_TIMEOUT_MS', '60000');
      vi.stubEnv('DATABASE_STATEMENT_TIMEOUT_MS', '60000');
    });
    afterEach(async () => {
      await proxy.heal();
      await closeDb();
    });
    afterAll(async () => {
      await proxy.close();
    });

    it('frozen, then gone: answers within its own limit, 503 with every database check failing, nothing leaked', async () => {
      expect((await probe()).status).toBe('ok');
      proxy.freeze();
      const started = performance.now();
      const failing = { database: 'failing', migrations: 'failing', job: 'failing', outbox: 'failing', keys: 'failing', mail: 'ok' };
      expect(await probe()).toEqual({ status: 'degraded', checks: failing });
      // A bound, not a speed figure: without the probe's limit this would wait for the driver's minute.
      expect(performance.now() - started).toBeLessThan(30_000);
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      await proxy.heal();
      await proxy.down();
      expect(await probe()).toEqual({ status: 'degraded', checks: failing });
    });
  });
});

/**
 * The same request twice is one request even when both arrive at the same
 * instant (docs/decisions/040-pages-without-javascript-and-repeated-requests.md):
 * the database decides, through the duplicate key's unique index, inside
 * each request's own transaction. Proven on a real multi-connection
 * Postgres (PGlite runs one query at a time and would hide the race): the
 * first request's row is held uncommitted while the second one arrives; the
 * second waits on it, then answers the first one's reference and writes
 * and sends nothing. Then many at once.
 */
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import requests from '../../netlify/functions/requests';
import { patientRequests, rateLimits } from '../../db/schema';
import { patientRequestSchema, type PatientRequest } from '../../src/lib/request-schema';
import { duplicateKeyOf } from '../../src/server/requests/duplicates.server';
import { serverHashKey } from '../../src/server/server-key.server';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');

describe('two identical requests at once, on a real Postgres', () => {
  const t = useTestBed({ database: 'postgres', now: NOW, dataDir: 'request-race-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', DATABASE_POOL_SIZE: '10' } });
  const body = {
    kind: 'referral',
    first_name: 'Erika',
    last_name: 'Mustermann',
    birth_date: '1964-08-12',
    email: 'race@example.org',
    consent: true,
    language: 'de',
    specialty: 'Orthopädie',
    reason: 'Knieschmerzen',
  };
  const post = (ip: string) => call(requests, '/api/requests', { method: 'POST', body, ip });
  const rows = () => t.db.select().from(patientRequests);
  const receipts = async () => {
    await settled();
    return (await readOutbox(t.outbox)).filter((m) => m.headers.to === body.email);
  };
  /** Connections of this database waiting for a lock (a row another transaction has not committed yet). */
  const waitingOnLocks = async () => {
    const result = (await t.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    return result.rows[0]!.n;
  };

  beforeEach(async () => {
    await settled();
    await t.db.delete(patientRequests);
    await t.db.delete(rateLimits);
    await rm(t.outbox, { recursive: true, force: true });
  });

  it('a post whose twin is still being written waits for it, then answers its reference and adds nothing', async () => {
    expect(t.kind).toBe('postgres');
    const key = duplicateKeyOf(patientRequestSchema.parse(body) as PatientRequest, serverHashKey());
    let inserted!: () => void;
    let release!: () => void;
    const written = new Promise<void>((resolve) => (inserted = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    // The first request, as far as its row: held open on a connection of its own.
    const first = t.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(patientRequests)
        .values({ kind: 'referral', tokenHash: 'a'.repeat(64), duplicateKey: key, statusAt: NOW, createdAt: NOW })
        .returning({ reference: patientRequests.reference });
      inserted();
      await released;
      return row!.reference;
    });
    await written;
    const second = post('10.0.9.1');
    // The second request's insert waits on the first one's row in the unique index.
    await vi.waitFor(async () => expect(await waitingOnLocks()).toBe(1), { timeout: 30_000, interval: 20 });
    release();
    const reference = await first;
    const answer = await second;
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ reference });
    expect(await rows()).toHaveLength(1);
    expect(await receipts()).toEqual([]);
  });

  it('twenty at once from several clients: one request, one receipt, every answer its reference', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(`10.0.9.${10 + (i % 4)}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.json.reference)).size).toBe(1);
    expect(await rows()).toHaveLength(1);
    expect(await receipts()).toHaveLength(1);
  });
});

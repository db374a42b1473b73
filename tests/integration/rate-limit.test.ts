/**
 * The generic abuse limit (src/server/rate-limit.server.ts) on both drivers:
 * a sliding window per keyed hash, exact under parallel bursts (real
 * Postgres), a refused hit leaves nothing behind.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { rateLimits } from '../../db/schema';
import { AppError } from '../../src/lib/errors';
import { canonicalClientAddress } from '../../src/server/client-address.server';
import {
  canonicalEmail,
  rateLimitKey,
  takeRateLimit,
  type RateLimit,
} from '../../src/server/rate-limit.server';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const LIMIT: RateLimit = { bucket: 'test', max: 3, windowSeconds: 600 };
const T0 = new Date('2030-01-07T06:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('canonical values', () => {
  it('keys one client by its IPv4, its IPv4-mapped IPv6 as IPv4, other IPv6 by the /64', () => {
    expect(canonicalClientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalClientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalClientAddress('2001:DB8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(canonicalClientAddress('2001:db8:0:1:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(canonicalClientAddress('2001:db8:0:2::1')).not.toBe(canonicalClientAddress('2001:db8:0:1::1'));
    expect(canonicalEmail('  Erika@Example.ORG ')).toBe('erika@example.org');
  });

  it('hashes with the server secret, per bucket', () => {
    const key = rateLimitKey(LIMIT, '203.0.113.7', 'secret-a');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(rateLimitKey(LIMIT, '203.0.113.7', 'secret-b')).not.toBe(key);
    expect(rateLimitKey({ ...LIMIT, bucket: 'other' }, '203.0.113.7', 'secret-a')).not.toBe(key);
  });
});

describe.each(databaseKinds)('takeRateLimit on %s', (kind) => {
  const t = useTestBed({ database: kind });
  beforeEach(async () => {
    await t.db.delete(rateLimits);
  });

  const hit = (value: string, now: Date) => takeRateLimit(t.db, [{ limit: LIMIT, key: rateLimitKey(LIMIT, value, 's') }], now);
  const refusal = async (p: Promise<unknown>) => {
    try {
      await p;
      return null;
    } catch (error) {
      return error as AppError;
    }
  };

  it('allows max hits within the window, then 429 with the seconds until the oldest leaves it; the refusal stores nothing', async () => {
    await hit('a', at(0));
    await hit('a', at(100));
    await hit('a', at(200));
    const before = await t.db.select().from(rateLimits);
    const error = await refusal(hit('a', at(300)));
    expect(error).toBeInstanceOf(AppError);
    expect(error!.status).toBe(429);
    expect(error!.retryAfterSeconds).toBe(300);
    expect(await t.db.select().from(rateLimits)).toEqual(before);
    // Another key is not affected; the window slides.
    expect(await refusal(hit('b', at(300)))).toBeNull();
    expect(await refusal(hit('a', at(600)))).toBeNull();
    expect((await refusal(hit('a', at(601))))!.retryAfterSeconds).toBe(99);
  });

  it('purges rows past their window', async () => {
    await hit('old', at(0));
    await hit('new', at(601));
    const rows = await t.db.select().from(rateLimits);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.keyHash).toBe(rateLimitKey(LIMIT, 'new', 's'));
  });

  // PGlite runs one query at a time: only a real Postgres can show the burst.
  if (kind === 'postgres') {
    it('counts a parallel burst exactly', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => refusal(hit('burst', at(0)))));
      expect(results.filter((r) => r === null)).toHaveLength(LIMIT.max);
      expect(results.filter((r) => r?.status === 429)).toHaveLength(20 - LIMIT.max);
    });
  }
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOKINGS_PER_CLIENT, bookingLimits, CONFIRMATIONS_PER_RECIPIENT, moveLimits } from './rate-limit.server';

const who = { clientAddress: '203.0.113.7', recipient: 'Erika@Example.org ' };
const env = { JWT_SECRET: 'x'.repeat(32), ADMIN_SETUP_SECRET: undefined };

describe('booking limits', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('are 10 bookings per address an hour and 3 confirmations per recipient a day', () => {
    const [perClient, perRecipient] = bookingLimits(who, { ...env, isProduction: true });
    expect(perClient!.limit).toEqual(BOOKINGS_PER_CLIENT);
    expect(BOOKINGS_PER_CLIENT).toMatchObject({ max: 10, windowSeconds: 3600 });
    expect(perRecipient!.limit).toEqual(CONFIRMATIONS_PER_RECIPIENT);
    expect(CONFIRMATIONS_PER_RECIPIENT).toMatchObject({ max: 3, windowSeconds: 86_400 });
  });

  it('keep only keyed hashes, the same for every spelling of one recipient', () => {
    const [a, b] = bookingLimits(who, { ...env, isProduction: true });
    const [, c] = bookingLimits({ ...who, recipient: 'erika@example.org' }, { ...env, isProduction: true });
    for (const hit of [a!, b!]) expect(hit.key).toMatch(/^[0-9a-f]{64}$/);
    expect(c!.key).toBe(b!.key);
    expect(JSON.stringify([a, b])).not.toMatch(/203\.0\.113|erika/i);
  });

  it('production ignores BOOKINGS_PER_CLIENT_MAX; development may raise the per-address limit for the browser tests', () => {
    vi.stubEnv('BOOKINGS_PER_CLIENT_MAX', '1000');
    expect(bookingLimits(who, { ...env, isProduction: true })[0]!.limit.max).toBe(10);
    expect(bookingLimits(who, env)[0]!.limit.max).toBe(10);
    const raised = bookingLimits(who, { ...env, isProduction: false })[0]!;
    expect(raised.limit.max).toBe(1000);
    expect(raised.key).toBe(bookingLimits(who, { ...env, isProduction: true })[0]!.key);
    vi.stubEnv('BOOKINGS_PER_CLIENT_MAX', 'lots');
    expect(bookingLimits(who, { ...env, isProduction: false })[0]!.limit.max).toBe(10);
  });

  it('key the client canonically: an IPv4 address and its IPv4-mapped spelling, and every address of one IPv6 /64, are one client', () => {
    const key = (clientAddress: string) => bookingLimits({ ...who, clientAddress }, env)[0]!.key;
    const moveKey = (clientAddress: string) => moveLimits({ token: 'a'.repeat(43), clientAddress }, env).client.key;
    for (const k of [key, moveKey]) {
      expect(k('::ffff:198.51.100.77')).toBe(k('198.51.100.77'));
      expect(k('2001:db8:1:2::1')).toBe(k('2001:db8:1:2:ffff:ffff:ffff:ffff'));
      expect(k('2001:db8:1:3::1')).not.toBe(k('2001:db8:1:2::1'));
      expect(k('198.51.100.78')).not.toBe(k('198.51.100.77'));
    }
  });

  it('key a move on the booking (an HMAC of its link token\'s hash, never the token)', () => {
    const a = moveLimits({ token: 'a'.repeat(43), clientAddress: '198.51.100.1' }, env);
    const b = moveLimits({ token: 'a'.repeat(43), clientAddress: '198.51.100.2' }, env);
    expect(a.booking.key).toBe(b.booking.key);
    expect(a.booking.key).toMatch(/^[0-9a-f]{64}$/);
    expect(moveLimits({ token: 'b'.repeat(43), clientAddress: '198.51.100.1' }, env).booking.key).not.toBe(a.booking.key);
  });
});

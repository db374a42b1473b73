/**
 * One client, one key (docs/decisions/012-client-keys-and-sign-in-limits.md):
 * every way of writing one address gives the same canonical client, parsed
 * by the ip-address package rather than by string patterns.
 */
import { describe, expect, it } from 'vitest';
import { canonicalClientAddress, clientKey } from './client-address.server';

const KEY = 'k'.repeat(64);

describe('canonicalClientAddress', () => {
  it.each([
    ['dotted IPv4', '198.51.100.77'],
    ['IPv4 with spaces around it', ' 198.51.100.77 '],
    ['IPv4-mapped, dotted', '::ffff:198.51.100.77'],
    ['IPv4-mapped, dotted, upper case', '::FFFF:198.51.100.77'],
    ['IPv4-mapped, in hex', '::ffff:c633:644d'],
    ['IPv4-mapped, in hex, upper case', '::FFFF:C633:644D'],
    ['IPv4-mapped, partly compressed with zero-padded groups', '0::0000:ffff:c633:644d'],
    ['IPv4-mapped, uncompressed hex', '0:0:0:0:0:ffff:c633:644d'],
    ['IPv4-mapped, uncompressed and zero-padded', '0000:0000:0000:0000:0000:ffff:c633:644d'],
    ['IPv4-mapped, uncompressed and dotted', '0000:0000:0000:0000:0000:FFFF:198.51.100.77'],
    ['IPv4-mapped, in URL brackets', '[::ffff:c633:644d]'],
    ['IPv4-mapped, with a zone id', '::ffff:c633:644d%eth0'],
  ])('%s is 198.51.100.77', (_what, written) => {
    expect(canonicalClientAddress(written)).toBe('198.51.100.77');
    expect(clientKey('login', written, KEY)).toBe(clientKey('login', '198.51.100.77', KEY));
  });

  it.each([
    ['compressed', '2001:db8:0:1::1'],
    ['upper case', '2001:DB8:0:1::1'],
    ['uncompressed', '2001:0db8:0000:0001:0000:0000:0000:0001'],
    ['another host of the /64', '2001:db8:0:1:ffff:1:2:3'],
    ['with a zone id', '2001:db8:0:1::1%eth0'],
    ['in URL brackets', '[2001:db8:0:1::1]'],
    ['in URL brackets with a zone id', '[2001:DB8:0:1:aaaa::1%en0]'],
  ])('IPv6 %s is its /64', (_what, written) => {
    expect(canonicalClientAddress(written)).toBe('2001:db8:0:1::/64');
  });

  it('keeps different networks and look-alikes apart', () => {
    expect(canonicalClientAddress('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    // Not in ::ffff:0:0/96: an IPv4-compatible or translated address is an IPv6 client of its own.
    expect(canonicalClientAddress('::ffff:0:c633:644d')).not.toBe('198.51.100.77');
    expect(canonicalClientAddress('::c633:644d')).not.toBe('198.51.100.77');
    expect(canonicalClientAddress('198.51.100.78')).toBe('198.51.100.78');
    expect(canonicalClientAddress('::ffff:c633:644e')).toBe('198.51.100.78');
  });

  it('keeps what it cannot parse as written, lower-cased', () => {
    expect(canonicalClientAddress('Unknown')).toBe('unknown');
    expect(canonicalClientAddress('198.51.100.777')).toBe('198.51.100.777');
  });
});

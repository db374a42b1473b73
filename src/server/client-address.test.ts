/**
 * One client, one key (docs/decisions/012-client-keys-and-sign-in-limits.md):
 * every way of writing one address gives the same canonical client, parsed
 * by Node's address checks and the URL parser rather than by string
 * patterns, and the same as the ip-address package's reading of it.
 */
import { Address4, Address6 } from 'ip-address';
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

/** The reading the ip-address package gives (the module used it before; a dev dependency since). */
function byIpAddressPackage(ip: string): string {
  const value = ip.trim();
  if (Address4.isValid(value)) return new Address4(value).correctForm();
  const bracketed = /^\[(.*)\]$/.exec(value);
  const written = bracketed ? bracketed[1]! : value;
  if (!written.includes('/') && Address6.isValid(written)) {
    const v6 = new Address6(written);
    if (v6.isMapped4()) return v6.to4().correctForm();
    return `${new Address6(`${v6.correctForm()}/64`).startAddress().correctForm()}/64`;
  }
  return value.toLowerCase();
}

describe('canonicalClientAddress against the ip-address package', () => {
  it('reads 3,000 generated addresses the same way', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const group = () => [0, 0, 1, 0xffff, random(0x10000)][random(5)]!;
    const hex = (g: number) => {
      const text = g.toString(16);
      return [text, text.padStart(4, '0'), text.toUpperCase()][random(3)]!;
    };
    const dotted = () => [random(256), random(256), random(256), random(256)].join('.');
    const samples: string[] = [];
    for (let i = 0; i < 3_000; i++) {
      const groups = Array.from({ length: 8 }, group);
      if (random(4) === 0) groups.splice(0, 6, 0, 0, 0, 0, 0, 0xffff);
      let text = groups.map(hex).join(':');
      // Compress one run of zero groups the way a client might (not always the longest).
      const zeroRun = /(^|:)(0+:){1,}0+(:|$)/.exec(text);
      if (zeroRun && random(2) === 0) text = `${text.slice(0, zeroRun.index)}::${text.slice(zeroRun.index + zeroRun[0].length)}`;
      if (groups[5] === 0xffff && groups.slice(0, 5).every((g) => g === 0) && random(2) === 0) text = `::ffff:${dotted()}`;
      const decorated = [text, `[${text}]`, ` ${text} `, `${text}%eth0`][random(4)]!;
      samples.push(decorated, dotted());
    }
    for (const sample of samples) expect(canonicalClientAddress(sample), sample).toBe(byIpAddressPackage(sample));
  });
});


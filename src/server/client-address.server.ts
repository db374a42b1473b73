/**
 * One client, one key (docs/architecture.md, Security): every
 * per-client limit – sign-in, setup, contact, "Passwort vergessen", reset,
 * booking, move – keys on the canonical form of the client's address, so
 * writing 198.51.100.77 as ::ffff:198.51.100.77 or rotating through the
 * addresses of one IPv6 /64 does not make a new client.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { keyedHash, serverHashKey } from './server-key.server';

/** The 8 groups of a valid IPv6 address, parsed and serialised by the WHATWG URL parser (RFC 5952 form). */
function ipv6Groups(address: string): number[] {
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::') as [string, string | undefined];
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...zeros, ...after].map((group) => parseInt(group, 16));
}

/**
 * IPv4 in its dotted form, an IPv4-mapped IPv6 address (::ffff:0:0/96) as
 * that IPv4 however it is written (::ffff:198.51.100.77, ::ffff:c633:644d,
 * uncompressed, upper case), and any other IPv6 address by its /64 prefix
 * (one subscriber's network; a client rotating through its own /64 is still
 * one client). Node's own address checks validate and the WHATWG URL parser
 * reads the groups (ip-address did this before and cost a function's cold
 * start about 18 ms: docs/decisions/023-functions-pre-bundled.md); a zone id
 * (%eth0) and URL brackets are no part of the address. Anything else is
 * kept as written, lower-cased.
 */
export function canonicalClientAddress(ip: string): string {
  const value = ip.trim();
  if (isIPv4(value)) return value;
  const bracketed = /^\[(.*)\]$/.exec(value);
  const written = (bracketed ? bracketed[1]! : value).replace(/%[^%]*$/, '');
  if (!isIPv6(written)) return value.toLowerCase();
  const groups = ipv6Groups(written);
  // By the address bits, not the notation.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return groups.slice(6).flatMap((group) => [group >> 8, group & 0xff]).join('.');
  }
  const network = new URL(`http://[${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::]`).hostname.slice(1, -1);
  return `${network}/64`;
}

/**
 * What a limit keeps of a client: an HMAC (server key, separated by
 * `purpose`) of the canonical address, never the address itself.
 */
export function clientKey(purpose: string, ip: string, key: string = serverHashKey()): string {
  return keyedHash(purpose, canonicalClientAddress(ip), key);
}

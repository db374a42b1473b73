/**
 * One client, one key (DESIGN.md "Account security (third round)"): every
 * per-client limit – sign-in, setup, contact, "Passwort vergessen", reset,
 * booking, move – keys on the canonical form of the client's address, so
 * writing 198.51.100.77 as ::ffff:198.51.100.77 or rotating through the
 * addresses of one IPv6 /64 does not make a new client.
 */
import { Address4, Address6 } from 'ip-address';
import { keyedHash, serverHashKey } from './server-key.server';

/**
 * IPv4 as written, an IPv4-mapped IPv6 address as its IPv4, and IPv6 by its
 * /64 prefix (one subscriber's network; a client rotating through its own
 * /64 is still one client).
 */
export function canonicalClientAddress(ip: string): string {
  const value = ip.trim();
  if (Address4.isValid(value)) return new Address4(value).correctForm();
  const bare = value.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (Address6.isValid(bare)) {
    const v6 = new Address6(bare);
    if (v6.is4()) return v6.to4().correctForm();
    return `${new Address6(`${v6.correctForm()}/64`).startAddress().correctForm()}/64`;
  }
  return value.toLowerCase();
}

/**
 * What a limit keeps of a client: an HMAC (server key, separated by
 * `purpose`) of the canonical address, never the address itself.
 */
export function clientKey(purpose: string, ip: string, key: string = serverHashKey()): string {
  return keyedHash(purpose, canonicalClientAddress(ip), key);
}

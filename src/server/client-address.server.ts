/**
 * One client, one key (docs/architecture.md, Security): every
 * per-client limit – sign-in, setup, contact, "Passwort vergessen", reset,
 * booking, move – keys on the canonical form of the client's address, so
 * writing 198.51.100.77 as ::ffff:198.51.100.77 or rotating through the
 * addresses of one IPv6 /64 does not make a new client.
 */
import { Address4, Address6 } from 'ip-address';
import { keyedHash, serverHashKey } from './server-key.server';

/**
 * IPv4 in its dotted form, an IPv4-mapped IPv6 address (::ffff:0:0/96) as
 * that IPv4 however it is written (::ffff:198.51.100.77, ::ffff:c633:644d,
 * uncompressed, upper case), and any other IPv6 address by its /64 prefix
 * (one subscriber's network; a client rotating through its own /64 is still
 * one client). The ip-address package parses; a zone id (%eth0) and URL
 * brackets are no part of the address. Anything it cannot parse is kept as
 * written, lower-cased.
 */
export function canonicalClientAddress(ip: string): string {
  const value = ip.trim();
  if (Address4.isValid(value)) return new Address4(value).correctForm();
  const bracketed = /^\[(.*)\]$/.exec(value);
  const written = bracketed ? bracketed[1]! : value;
  if (!written.includes('/') && Address6.isValid(written)) {
    const v6 = new Address6(written);
    // By the address bits, not the notation: is4() is true only for the dotted form.
    if (v6.isMapped4()) return v6.to4().correctForm();
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

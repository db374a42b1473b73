/**
 * Short links in SMS (docs/decisions/043-sms-second-channel.md): `/k/<code>`,
 * a random code of 12 letters and digits (about 71 bits), so the whole link
 * stays within 40 characters on a short site address. Only the code's
 * SHA-256 is kept; the page it leads to (the same page the matching email
 * links to, whose address carries a link token) is sealed under the
 * appointment-contact key ring, the code's hash as associated data, so
 * neither the table nor a backup gives a token away. Each link points at
 * one booking, waitlist offer or patient request and goes with it (foreign
 * keys), at the latest at its expiry (the scheduled job). Guessing is
 * limited per client like sign-in failures: misses count, and a client over
 * the limit gets 429 even for a right code (short-link.server.ts in
 * actions).
 */
import { createHash, randomInt } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { shortLinks } from '../../../db/schema';
import type { KeyRing } from '../appointment-contact/keys.server';
import { openJson, sealJson } from '../sealing.server';
import { rowsOf } from '../../../db/rows';
import { SHORT_CODE_LENGTH } from './short-code.server';

/** Letters and digits without look-alikes (0/O, 1/I/l): easy to read off a phone and to type. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const SHORT_CODE = new RegExp(`^[${ALPHABET}]{${SHORT_CODE_LENGTH}}$`);

/** What a link leads to: a site-relative path (with its query) and the one row it belongs to. */
export type LinkTarget = { path: string; expiresAt: Date } & ({ bookingId: string } | { offerId: string } | { requestId: string });

export function newShortCode(): string {
  let code = '';
  for (let i = 0; i < SHORT_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export function hashShortCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

const associatedData = (codeHash: string) => `short-link:${codeHash}`;

/** Writes a link through `db` (the change's transaction) and answers its code. */
export async function createShortLink(db: Executor, target: LinkTarget, keys: KeyRing, now: Date): Promise<string> {
  const code = newShortCode();
  const codeHash = hashShortCode(code);
  const sealed = sealJson({ p: target.path }, associatedData(codeHash), keys);
  await db.insert(shortLinks).values({
    codeHash,
    bookingId: 'bookingId' in target ? target.bookingId : null,
    offerId: 'offerId' in target ? target.offerId : null,
    requestId: 'requestId' in target ? target.requestId : null,
    keyId: sealed.keyId,
    sealed: sealed.sealed,
    expiresAt: target.expiresAt,
    createdAt: now,
  });
  return code;
}

/** The site-relative path a code leads to, or null (unknown, expired, or no configured key opens it). Reads only. */
export async function resolveShortLink(db: Executor, code: string, keys: KeyRing | null, now: Date): Promise<string | null> {
  if (!SHORT_CODE.test(code)) return null;
  const codeHash = hashShortCode(code);
  const [row] = rowsOf<{ key_id: string; sealed: string }>(
    await db.execute(sql`select key_id, sealed from short_links where code_hash = ${codeHash} and expires_at > ${now.toISOString()}::timestamptz`),
  );
  if (!row || !keys) return null;
  try {
    const { p } = openJson<{ p: string }>({ keyId: row.key_id, sealed: row.sealed }, associatedData(codeHash), keys);
    // Only a path on this site: a sealed value can never send anyone elsewhere.
    return p.startsWith('/') && !p.startsWith('//') ? p : null;
  } catch {
    return null;
  }
}

/**
 * The statement that deletes the links past their expiry, for the scheduled
 * job's purge to run with its others (appointment-contact/job.server.ts);
 * what they pointed at deletes the rest.
 */
export function deleteExpiredShortLinks(now: Date): SQL {
  return sql`delete from short_links where expires_at <= ${now.toISOString()}::timestamptz returning code_hash`;
}

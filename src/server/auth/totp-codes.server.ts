/**
 * The codes of the TOTP second factor (docs/decisions/027-staff-second-factor.md):
 * RFC 6238 (30-s steps, 6 digits, ±1 step of clock drift) with `otpauth`,
 * the secret sealed at rest with the appointment contacts' key ring, 10
 * one-time recovery codes stored as SHA-256 only, and the limits on code
 * attempts (per account and per (account, client)). A code is accepted
 * once: the step of the newest accepted code is kept, and only a later one
 * counts. Enrolment, sign-in and removal use these (second-factor.server.ts);
 * so does confirming who one is for a change to one's factors
 * (factor-proof.server.ts).
 */
import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../../../db/client';
import { rateLimits, staffRecoveryCodes, staffSecondFactors } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import { practice } from '../../lib/practice';
import { dataKeyRing, type KeyRing } from '../appointment-contact/keys.server';
import { canonicalClientAddress } from '../client-address.server';
import { forgetHit, rateLimitKey, takeRateLimit, type RateLimit, type RateLimitHit } from '../rate-limit.server';
import { serverHashKey } from '../server-key.server';
import { sha256Hex } from './tokens.server';
import { queueSecurityNotice } from './security-notice.server';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of the step before and after the server's clock are accepted too. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

/**
 * Code attempts, like the password's: per (account, client) and per
 * account. The per-account limit stops guessing spread over many
 * addresses; only someone who knows the password can use it up.
 */
export const CODES_PER_ACCOUNT_AND_CLIENT: RateLimit = { bucket: 'second-factor-account-client', max: 5, windowSeconds: 15 * 60 };
export const CODES_PER_ACCOUNT: RateLimit = { bucket: 'second-factor-account', max: 10, windowSeconds: 15 * 60 };

export const INVALID_CODE = 'Der Code ist ungültig oder wurde bereits verwendet.';
const TOO_MANY_CODES = 'Zu viele fehlgeschlagene Code-Eingaben. Bitte versuchen Sie es später erneut.';

// ---------------------------------------------------------------------------
// Sealing the secret (AES-256-GCM, the key ring of the appointment contacts)

const IV_BYTES = 12;
const TAG_BYTES = 16;
const aad = (userId: string) => Buffer.from(`second-factor:${userId}`, 'utf8');

export function sealSecret(base32: string, userId: string, keys: KeyRing): { keyId: string; sealed: string } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(aad(userId));
  const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return { keyId: keys.current.id, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url') };
}

/** The secret, or null when no configured key opens it (then only a recovery code or a colleague's reset helps). */
export function openSecret(value: { keyId: string; sealed: string }, userId: string, keys: KeyRing): string | null {
  const dataKey = keys.byId.get(value.keyId);
  if (!dataKey) return null;
  const raw = Buffer.from(value.sealed, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(aad(userId));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

export function totpFor(base32: string, email: string): TOTP {
  return new TOTP({
    issuer: practice.name.de,
    label: email,
    secret: Secret.fromBase32(base32),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The 30-s step a 6-digit code belongs to (±1 step around `now`), or null. */
export function matchingStep(base32: string, code: string, now: Date): number | null {
  const totp = totpFor(base32, 'x');
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

// ---------------------------------------------------------------------------
// Recovery codes: 16 characters of Crockford-like base32 (80 bits), shown as XXXX-XXXX-XXXX-XXXX

const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 16; i++) out += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return out.match(/.{4}/g)!.join('-');
}

/** What is hashed: upper case without spaces or dashes, so a code typed either way matches. */
export function normaliseRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

export const recoveryHash = (code: string) => sha256Hex(`recovery:${normaliseRecoveryCode(code)}`);

export const SIX_DIGITS = /^\d{6}$/;
const RECOVERY_FORM = /^[A-Z0-9]{16}$/;

// ---------------------------------------------------------------------------
// Limits

function codeLimits(userId: string, ip: string): { account: RateLimitHit; pair: RateLimitHit } {
  const secret = serverHashKey();
  return {
    account: { limit: CODES_PER_ACCOUNT, key: rateLimitKey(CODES_PER_ACCOUNT, userId, secret) },
    pair: { limit: CODES_PER_ACCOUNT_AND_CLIENT, key: rateLimitKey(CODES_PER_ACCOUNT_AND_CLIENT, `${userId}|${canonicalClientAddress(ip)}`, secret) },
  };
}

/** Counts one code attempt (429 with Retry-After beyond a limit); call `accepted` when the code was right. */
export async function countAttempt(db: Database, userId: string, ip: string, now: Date): Promise<{ accepted: () => Promise<void> }> {
  const hits = codeLimits(userId, ip);
  await takeRateLimit(db, [hits.pair, hits.account], now, TOO_MANY_CODES);
  return {
    // A right code forgives this client's earlier typos for this account (as a right password does)
    // and does not count itself against the account.
    accepted: async () => {
      await db.delete(rateLimits).where(and(eq(rateLimits.bucket, hits.pair.limit.bucket), eq(rateLimits.keyHash, hits.pair.key)));
      await forgetHit(db, hits.account, now);
    },
  };
}

export function invalidCode(): AppError {
  return new AppError('invalid-code', INVALID_CODE);
}

/**
 * Checks a code for a user: a 6-digit TOTP code of a confirmed (or, with
 * `pending`, the unconfirmed) factor, accepted only for a step after the
 * newest accepted one; or, unless `totpOnly`, an unused recovery code,
 * which is used up. True when accepted.
 */
export async function acceptCode(
  db: Database,
  userId: string,
  code: string,
  now: Date,
  options: { pending?: boolean; totpOnly?: boolean; recoveryOnly?: boolean } = {},
): Promise<'totp' | 'recovery' | null> {
  const trimmed = code.trim();
  if (SIX_DIGITS.test(trimmed) && !options.recoveryOnly) {
    const [factor] = await db
      .select()
      .from(staffSecondFactors)
      .where(and(eq(staffSecondFactors.userId, userId), options.pending ? isNull(staffSecondFactors.confirmedAt) : isNotNull(staffSecondFactors.confirmedAt)));
    if (!factor) return null;
    const keys = await dataKeyRing();
    const secret = openSecret(factor, userId, keys);
    if (!secret) return null;
    const step = matchingStep(secret, trimmed, now);
    if (step === null) return null;
    // One UPDATE decides: only a step after the newest accepted one, so a code (or an older one) replayed is refused, also when two arrive at once.
    const updated = await db
      .update(staffSecondFactors)
      .set({ lastStep: step, ...(options.pending ? { confirmedAt: now } : {}) })
      .where(
        and(
          eq(staffSecondFactors.userId, userId),
          options.pending ? isNull(staffSecondFactors.confirmedAt) : isNotNull(staffSecondFactors.confirmedAt),
          sql`(${staffSecondFactors.lastStep} is null or ${staffSecondFactors.lastStep} < ${step})`,
        ),
      )
      .returning({ userId: staffSecondFactors.userId });
    if (updated.length === 0) return null;
    // Sealed with an older key of the ring: sealed anew with the current one, so the old key can go (README, key rotation).
    if (factor.keyId !== keys.current.id) {
      await db.update(staffSecondFactors).set(sealSecret(secret, userId, keys)).where(eq(staffSecondFactors.userId, userId));
    }
    return 'totp';
  }
  if (options.totpOnly || options.pending) return null;
  const normalised = normaliseRecoveryCode(trimmed);
  if (!RECOVERY_FORM.test(normalised)) return null;
  // A spent recovery code tells its owner, in the same transaction (docs/decisions/041); removing the
  // factor with one (recoveryOnly) says so in its own notice instead.
  return db.transaction(async (tx) => {
    const used = await tx
      .update(staffRecoveryCodes)
      .set({ usedAt: now })
      .where(and(eq(staffRecoveryCodes.userId, userId), eq(staffRecoveryCodes.codeHash, recoveryHash(normalised)), isNull(staffRecoveryCodes.usedAt)))
      .returning({ id: staffRecoveryCodes.id });
    if (used.length === 0) return null;
    if (!options.recoveryOnly) await queueSecurityNotice(tx, userId, 'recovery-code-used', {}, now);
    return 'recovery' as const;
  });
}


/** Whether the account has a confirmed TOTP factor (its recovery codes come with it). */
export async function hasTotp(db: Database, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: staffSecondFactors.userId })
    .from(staffSecondFactors)
    .where(and(eq(staffSecondFactors.userId, userId), isNotNull(staffSecondFactors.confirmedAt)));
  return rows.length > 0;
}

/**
 * The staff second factor (docs/decisions/027-staff-second-factor.md): TOTP
 * (RFC 6238: 30-s steps, 6 digits, ±1 step of clock drift) with `otpauth`,
 * the QR code drawn on the server as SVG with `qrcode` (no third party sees
 * the secret), 10 one-time recovery codes stored as SHA-256 only, the
 * secret sealed at rest with the appointment contacts' key ring.
 *
 * Sign-in with a factor is two steps: the password step hands out a
 * short-lived pending token (a cookie, no session), the code step opens the
 * session and records on it that it passed the factor. Code attempts are
 * limited per account and per (account, client); a code is accepted once
 * (the step of the newest accepted code is kept, and only a later one
 * counts).
 */
import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Database } from '../../../db/client';
import { practiceSettings, rateLimits, sessions, staffRecoveryCodes, staffSecondFactors, users } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import { practice } from '../../lib/practice';
import { dataKeyRing, type KeyRing } from '../appointment-contact/keys.server';
import { auditLabel } from '../audit-labels.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { canonicalClientAddress } from '../client-address.server';
import { buildSecondFactorResetEmail } from '../email/messages/account.server';
import { enqueueEmails } from '../email/queue.server';
import { forgetHit, rateLimitKey, takeRateLimit, type RateLimit, type RateLimitHit } from '../rate-limit.server';
import { serverHashKey } from '../server-key.server';
import { createSession, type IssuedSession, type SessionInfo } from './sessions.server';
import { hasSecondFactor, pendingUserId } from './second-factor-pending.server';
import { sha256Hex } from './tokens.server';

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

export type SecondFactorState = SessionInfo['secondFactor'];

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

function totpFor(base32: string, email: string): TOTP {
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

const recoveryHash = (code: string) => sha256Hex(`recovery:${normaliseRecoveryCode(code)}`);

const SIX_DIGITS = /^\d{6}$/;
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
async function countAttempt(db: Database, userId: string, ip: string, now: Date): Promise<{ accepted: () => Promise<void> }> {
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

function invalidCode(): AppError {
  return new AppError('invalid-code', INVALID_CODE);
}

/**
 * Checks a code for a user: a 6-digit TOTP code of a confirmed (or, with
 * `pending`, the unconfirmed) factor, accepted only for a step after the
 * newest accepted one; or, unless `totpOnly`, an unused recovery code,
 * which is used up. True when accepted.
 */
async function acceptCode(
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
  const used = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(staffRecoveryCodes.userId, userId), eq(staffRecoveryCodes.codeHash, recoveryHash(normalised)), isNull(staffRecoveryCodes.usedAt)))
    .returning({ id: staffRecoveryCodes.id });
  return used.length > 0 ? 'recovery' : null;
}

// ---------------------------------------------------------------------------
// Sign-in

/**
 * The code step of sign-in: a 6-digit code or a recovery code for the
 * pending sign-in; opens the session (which records that it passed the
 * factor). 401 `unauthenticated` without a live pending sign-in, 401
 * `invalid-code` for a wrong, used or replayed code, 429 beyond the limits.
 */
export async function completeSignIn(db: Database, pendingToken: string | undefined, code: string, ip: string, now: Date = new Date()): Promise<IssuedSession> {
  const userId = await pendingUserId(pendingToken, now);
  if (!userId) throw new AppError('unauthenticated', 'Die Anmeldung ist abgelaufen. Bitte melden Sie sich erneut an.');
  const attempt = await countAttempt(db, userId, ip, now);
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  if (!user || !(await acceptCode(db, userId, code, now))) throw invalidCode();
  await attempt.accepted();
  return createSession(db, user, now, { secondFactorAt: now });
}

// ---------------------------------------------------------------------------
// Enrolment under "Mein Konto"

export interface EnrolmentStart {
  secret: string;
  otpauth_url: string;
  qr_svg: string;
}

/**
 * Starts (or restarts) an enrolment: a new secret, sealed, waiting for its
 * first code. 409 while a confirmed factor exists (remove it first with a
 * recovery code, or ask a colleague to reset it).
 */
export async function startEnrolment(db: Database, actor: AuditActor, now: Date = new Date()): Promise<EnrolmentStart> {
  const base32 = new Secret({ size: 20 }).base32;
  const sealed = sealSecret(base32, actor.user.id, await dataKeyRing());
  const written = await db
    .insert(staffSecondFactors)
    .values({ userId: actor.user.id, ...sealed, createdAt: now })
    .onConflictDoUpdate({
      target: staffSecondFactors.userId,
      set: { keyId: sealed.keyId, sealed: sealed.sealed, lastStep: null, createdAt: now },
      setWhere: isNull(staffSecondFactors.confirmedAt),
    })
    .returning({ userId: staffSecondFactors.userId });
  if (written.length === 0) {
    throw new AppError('conflict', 'Für dieses Konto ist die Zwei-Faktor-Anmeldung bereits eingerichtet.');
  }
  const url = totpFor(base32, actor.user.email).toString();
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret: base32, otpauth_url: url, qr_svg: svg };
}

/**
 * Confirms an enrolment with its first code: the factor counts from now,
 * this session has passed it, the account's other sessions end (they never
 * did), and 10 new recovery codes are made, returned once (only their
 * hashes stay).
 */
export async function confirmEnrolment(
  db: Database,
  actor: AuditActor & { sessionId: string },
  code: string,
  ip: string,
  now: Date = new Date(),
): Promise<{ recovery_codes: string[] }> {
  const [pending] = await db
    .select({ userId: staffSecondFactors.userId })
    .from(staffSecondFactors)
    .where(and(eq(staffSecondFactors.userId, actor.user.id), isNull(staffSecondFactors.confirmedAt)));
  if (!pending) throw new AppError('conflict', 'Es wartet keine Einrichtung auf Bestätigung. Bitte beginnen Sie die Einrichtung neu.');
  const attempt = await countAttempt(db, actor.user.id, ip, now);
  if (!(await acceptCode(db, actor.user.id, code, now, { pending: true }))) throw invalidCode();
  await attempt.accepted();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, actor.user.id));
    await tx.insert(staffRecoveryCodes).values(codes.map((c) => ({ userId: actor.user.id, codeHash: recoveryHash(c), createdAt: now })));
    await tx.update(sessions).set({ secondFactorAt: now }).where(eq(sessions.id, actor.sessionId));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, actor.user.id), ne(sessions.id, actor.sessionId), isNull(sessions.revokedAt)));
    await recordAudit(tx, actor, { action: 'second-factor-enrol', entity: 'user', entityId: actor.user.id, label: auditLabel.user(actor.user) }, now);
  });
  return { recovery_codes: codes };
}

/**
 * Removes one's own factor, which takes an unused recovery code (used up
 * by this): nobody resets their own factor with a stolen session alone.
 * Limited like sign-in codes.
 */
export async function removeOwnSecondFactor(db: Database, actor: AuditActor, code: string, ip: string, now: Date = new Date()): Promise<void> {
  if (!(await hasSecondFactor(db, actor.user.id))) throw new AppError('conflict', 'Für dieses Konto ist keine Zwei-Faktor-Anmeldung eingerichtet.');
  const attempt = await countAttempt(db, actor.user.id, ip, now);
  if (!(await acceptCode(db, actor.user.id, code, now, { recoveryOnly: true }))) throw invalidCode();
  await attempt.accepted();
  await db.transaction(async (tx) => {
    await tx.delete(staffSecondFactors).where(eq(staffSecondFactors.userId, actor.user.id));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, actor.user.id));
    await recordAudit(tx, actor, { action: 'second-factor-remove', entity: 'user', entityId: actor.user.id, label: auditLabel.user(actor.user) }, now);
  });
}

/** What "Mein Konto" shows: whether a factor is set up, and how many recovery codes are left. */
export async function secondFactorStatus(db: Database, userId: string): Promise<{ enrolled: boolean; recovery_codes_left: number; required: boolean }> {
  const [row] = await db
    .select({
      enrolled: sql<boolean>`exists (select 1 from ${staffSecondFactors} f where f.user_id = ${userId} and f.confirmed_at is not null)`.mapWith((v: unknown) => v === true),
      left: sql<number>`(select count(*) from ${staffRecoveryCodes} c where c.user_id = ${userId} and c.used_at is null)`.mapWith(Number),
      required: sql<boolean>`coalesce((select s.require_second_factor from ${practiceSettings} s where s.id), false)`.mapWith((v: unknown) => v === true),
    })
    .from(sql`(select 1) one`);
  return { enrolled: row?.enrolled ?? false, recovery_codes_left: row?.left ?? 0, required: row?.required ?? false };
}

// ---------------------------------------------------------------------------
// A colleague's reset (Benutzer)

/**
 * An admin resets a colleague's factor (a lost phone): factor and recovery
 * codes go, the colleague's sessions end, audited; the colleague's email is
 * queued with the change. Never one's own (403): that takes a recovery code.
 * 404 unknown user, 409 when there is nothing to reset.
 */
export async function resetColleagueSecondFactor(
  db: Database,
  actor: AuditActor,
  targetId: string,
  mail: { siteUrl: string },
  now: Date = new Date(),
): Promise<{ emailed: boolean }> {
  if (targetId === actor.user.id) {
    throw new AppError('forbidden', 'Ihre eigene Zwei-Faktor-Anmeldung setzen Sie unter „Mein Konto“ mit einem Wiederherstellungscode zurück.');
  }
  const target = await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, targetId)).for('update');
    if (!user) throw new AppError('not-found', 'Unknown user.');
    const removed = await tx.delete(staffSecondFactors).where(eq(staffSecondFactors.userId, targetId)).returning({ userId: staffSecondFactors.userId });
    if (removed.length === 0) throw new AppError('conflict', 'Dieses Konto hat keine Zwei-Faktor-Anmeldung.');
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, targetId));
    await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, targetId), isNull(sessions.revokedAt)));
    await recordAudit(tx, actor, { action: 'second-factor-reset', entity: 'user', entityId: targetId, label: auditLabel.user(user) }, now);
    // The colleague's email, queued with the reset (docs/decisions/035).
    const message = buildSecondFactorResetEmail({ to: user.email, resetBy: actor.user.email, siteUrl: mail.siteUrl });
    await enqueueEmails(tx, [{ message, kind: 'account-second-factor-reset', audience: 'staff' }], undefined, now);
    return user;
  });
  return { emailed: target !== null };
}

// ---------------------------------------------------------------------------
// "Zwei-Faktor-Pflicht"

export interface PracticeSettingsDto {
  require_second_factor: boolean;
}

export async function readSettings(db: Database): Promise<PracticeSettingsDto> {
  const [row] = await db.select({ require: practiceSettings.requireSecondFactor }).from(practiceSettings).where(eq(practiceSettings.id, true));
  return { require_second_factor: row?.require ?? false };
}

/**
 * Turns the requirement on or off (audited). Turning it on takes an admin
 * who has a factor: otherwise the switch would send its own user to
 * enrolment at once.
 */
export async function updateSettings(db: Database, actor: AuditActor, input: PracticeSettingsDto, now: Date = new Date()): Promise<PracticeSettingsDto> {
  if (input.require_second_factor && !(await hasSecondFactor(db, actor.user.id))) {
    throw new AppError('conflict', 'Richten Sie zuerst Ihre eigene Zwei-Faktor-Anmeldung ein (Mein Konto), bevor Sie sie für alle verlangen.');
  }
  return db.transaction(async (tx) => {
    await tx
      .insert(practiceSettings)
      .values({ id: true, requireSecondFactor: input.require_second_factor, updatedAt: now })
      .onConflictDoUpdate({ target: practiceSettings.id, set: { requireSecondFactor: input.require_second_factor, updatedAt: now } });
    await recordAudit(
      tx,
      actor,
      { action: 'update', entity: 'settings', entityId: 'practice', label: input.require_second_factor ? 'Zwei-Faktor-Pflicht an' : 'Zwei-Faktor-Pflicht aus' },
      now,
    );
    return { require_second_factor: input.require_second_factor };
  });
}

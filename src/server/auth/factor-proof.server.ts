/**
 * Proving who one is before changing one's own sign-in
 * (docs/decisions/037-passkeys-sessions-guessing.md): a session alone (a
 * device left signed in, a stolen cookie) must not add a factor of its own
 * choosing, nor remove one.
 *
 * - `password-and-code` (setting up a factor: TOTP, a passkey): the current
 *   password, and when the account has TOTP also a code of it (6 digits or
 *   a recovery code).
 * - `password-or-code` (removing a passkey): the current password or a
 *   fresh code.
 *
 * Passwords typed here are limited per account (5 wrong in 15 minutes, then
 * 429); codes count in the code limits of sign-in.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { users } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import { forgetHit, rateLimitKey, takeRateLimit, type RateLimit } from '../rate-limit.server';
import { serverHashKey } from '../server-key.server';
import { dummyPasswordHash, verifyPassword } from './password.server';
import { acceptCode, countAttempt, hasTotp, invalidCode } from './totp-codes.server';

/** Passwords typed to confirm a change, per account: 5 within 15 minutes. */
export const PASSWORD_CONFIRMATIONS_PER_ACCOUNT: RateLimit = { bucket: 'password-confirm-account', max: 5, windowSeconds: 15 * 60 };

export const PASSWORD_NEEDED = 'Bitte bestätigen Sie die Änderung mit Ihrem aktuellen Passwort.';
export const WRONG_PASSWORD = 'Das Passwort ist falsch.';
const CODE_NEEDED = 'Bitte geben Sie zusätzlich einen Code Ihrer Authenticator-App oder einen Wiederherstellungscode ein.';
const PROOF_NEEDED = 'Bitte bestätigen Sie die Änderung mit Ihrem Passwort oder einem Code.';

export interface FactorProof {
  password?: string;
  code?: string;
}

async function checkPassword(db: Database, userId: string, password: string | undefined, now: Date): Promise<void> {
  if (!password) throw new AppError('wrong-password', PASSWORD_NEEDED);
  const hit = { limit: PASSWORD_CONFIRMATIONS_PER_ACCOUNT, key: rateLimitKey(PASSWORD_CONFIRMATIONS_PER_ACCOUNT, userId, serverHashKey()) };
  await takeRateLimit(db, [hit], now, 'Zu viele falsche Passwörter. Bitte versuchen Sie es später erneut.');
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  const valid = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !valid) throw new AppError('wrong-password', WRONG_PASSWORD);
  // A right password does not count against the next one.
  await forgetHit(db, hit, now);
}

async function checkCode(db: Database, userId: string, code: string, ip: string, now: Date): Promise<void> {
  const attempt = await countAttempt(db, userId, ip, now);
  if (!(await acceptCode(db, userId, code, now))) throw invalidCode();
  await attempt.accepted();
}

/** Refuses (401 `wrong-password` / `invalid-code`, 429) unless the proof meets the rule; nothing else happens. */
export async function confirmIdentity(
  db: Database,
  userId: string,
  proof: FactorProof,
  rule: 'password-and-code' | 'password-or-code',
  ip: string,
  now: Date = new Date(),
): Promise<void> {
  if (rule === 'password-or-code') {
    if (proof.code) return checkCode(db, userId, proof.code, ip, now);
    if (!proof.password) throw new AppError('wrong-password', PROOF_NEEDED);
    return checkPassword(db, userId, proof.password, now);
  }
  await checkPassword(db, userId, proof.password, now);
  if (!(await hasTotp(db, userId))) return;
  if (!proof.code) throw new AppError('invalid-code', CODE_NEEDED);
  await checkCode(db, userId, proof.code, ip, now);
}

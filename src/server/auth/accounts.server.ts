/**
 * Staff accounts (DESIGN.md Practice operations): own password change,
 * "Passwort vergessen" and setting a password from a single-use link (a
 * reset, 30 minutes, or an invitation, 48 hours). Link tokens are 256
 * random bits; only their SHA-256 is stored.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { passwordResetAttempts, passwordTokens, users } from '../../../db/schema';
import { buildPasswordLinkEmail, passwordLinkUrl, type PasswordLinkPurpose } from '../../lib/account-email';
import type { PasswordChangeInput, ResetPasswordInput } from '../../lib/account-schemas';
import { AppError } from '../../lib/errors';
import { auditLabel } from '../audit-labels.server';
import { recordAudit } from '../audit.server';
import type { EmailSender } from '../email/email.server';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.server';
import { revokeOtherSessions } from './sessions.server';
import { keyedHash } from '../server-key.server';
import { sha256Hex } from './tokens.server';

export const PASSWORD_LINK_TTL_MS: Record<PasswordLinkPurpose, number> = {
  reset: 30 * 60 * 1000,
  invitation: 48 * 60 * 60 * 1000,
};

/** "Passwort vergessen": per address asked for and per client, within one hour. */
export const FORGOT_RATE_LIMIT = { perEmail: 3, perClient: 10, windowMinutes: 60 } as const;

export const WRONG_CURRENT_PASSWORD = 'Das aktuelle Passwort ist falsch.';

/**
 * Issues a new link token for a user; any earlier unused token of the same
 * purpose stops working, so only the newest email's link is valid.
 */
export async function issuePasswordToken(
  db: Database,
  userId: string,
  purpose: PasswordLinkPurpose,
  now: Date = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordTokens.userId, userId), eq(passwordTokens.purpose, purpose), isNull(passwordTokens.usedAt)));
  await db.insert(passwordTokens).values({
    userId,
    purpose,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now.getTime() + PASSWORD_LINK_TTL_MS[purpose]),
    createdAt: now,
  });
  return token;
}

/** Keyed hash for the rate-limit table: neither addresses nor emails are kept in clear. */
export function forgotKey(kind: 'email' | 'client', value: string, secret: string): string {
  return keyedHash('password-reset-rate-limit', `${kind}:${value}`, secret);
}

/**
 * Counts a "Passwort vergessen" request against the limits of its address
 * and its client, or throws 429. One transaction under an advisory lock, so
 * parallel requests cannot slip past the limit together; rows past the
 * window are deleted on the way.
 */
export async function takeForgotAllowance(
  db: Database,
  keys: { email: string; client: string },
  now: Date = new Date(),
): Promise<void> {
  const windowStart = new Date(now.getTime() - FORGOT_RATE_LIMIT.windowMinutes * 60_000);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('password-reset-rate-limit'))`);
    await tx.delete(passwordResetAttempts).where(lt(passwordResetAttempts.attemptedAt, windowStart));
    const [row] = await tx
      .select({
        byEmail: sql<number>`count(*) filter (where ${passwordResetAttempts.key} = ${keys.email})`.mapWith(Number),
        byClient: sql<number>`count(*) filter (where ${passwordResetAttempts.key} = ${keys.client})`.mapWith(Number),
      })
      .from(passwordResetAttempts)
      .where(gt(passwordResetAttempts.attemptedAt, windowStart));
    if ((row?.byEmail ?? 0) >= FORGOT_RATE_LIMIT.perEmail || (row?.byClient ?? 0) >= FORGOT_RATE_LIMIT.perClient) {
      throw new AppError('rate-limited', 'Zu viele Anfragen. Bitte versuchen Sie es in einer Stunde erneut.');
    }
    await tx.insert(passwordResetAttempts).values([
      { key: keys.email, attemptedAt: now },
      { key: keys.client, attemptedAt: now },
    ]);
  });
}

/**
 * "Passwort vergessen": when the address has an account, emails a reset
 * link. The caller answers 202 either way, so the answer never tells
 * whether an address has an account; a failed email is only logged by name.
 */
export async function requestPasswordReset(
  deps: { db: Database; email: EmailSender; siteUrl: string; secret: string },
  address: string,
  ip: string,
  now: Date = new Date(),
): Promise<void> {
  await takeForgotAllowance(
    deps.db,
    { email: forgotKey('email', address, deps.secret), client: forgotKey('client', ip, deps.secret) },
    now,
  );
  const [user] = await deps.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, address));
  if (!user) return;
  const token = await issuePasswordToken(deps.db, user.id, 'reset', now);
  try {
    await deps.email.send(buildPasswordLinkEmail({ purpose: 'reset', to: user.email, link: passwordLinkUrl(deps.siteUrl, token) }));
  } catch (error) {
    console.warn(`password reset email failed: ${error instanceof Error ? error.name : 'unknown error'}`);
  }
}

/**
 * Sets a new password from a reset or invitation link. The token is
 * claimed by one UPDATE that matches only an unused, unexpired token, so a
 * link works once even when used twice at the same moment. Every session
 * of the user ends: whoever knew the old password is signed out.
 */
export async function resetPassword(db: Database, input: ResetPasswordInput, now: Date = new Date()): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [claimed] = await tx
      .update(passwordTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordTokens.tokenHash, sha256Hex(input.token)), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, now)))
      .returning({ userId: passwordTokens.userId, purpose: passwordTokens.purpose });
    if (!claimed) throw new AppError('not-found', 'Der Link ist ungültig, abgelaufen oder wurde bereits verwendet.');
    const [user] = await tx
      .update(users)
      // A password of their own: an invited colleague has signed up.
      .set({ passwordHash, invitationPending: false })
      .where(eq(users.id, claimed.userId))
      .returning({ id: users.id, email: users.email });
    if (!user) throw new AppError('not-found', 'Der Link ist ungültig, abgelaufen oder wurde bereits verwendet.');
    await revokeOtherSessions(tx, user.id, undefined, now);
    // Accepting an invitation is its own action (DESIGN.md Reception), not a reset.
    const action = claimed.purpose === 'invitation' ? 'invitation-accept' : 'password-reset';
    await recordAudit(tx, { user }, { action, entity: 'user', entityId: user.id, label: auditLabel.user(user) }, now);
  });
}

/**
 * Own password change: the current password is required (401 otherwise);
 * all other sessions of the user end, the one making the change stays.
 */
export async function changePassword(
  db: Database,
  session: { user: { id: string; email: string }; sessionId: string },
  input: PasswordChangeInput,
  now: Date = new Date(),
): Promise<void> {
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, session.user.id));
  const valid = await verifyPassword(input.currentPassword, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !valid) throw new AppError('unauthenticated', WRONG_CURRENT_PASSWORD);
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, session.user.id));
    await revokeOtherSessions(tx, session.user.id, session.sessionId, now);
    await recordAudit(tx, session, { action: 'password-change', entity: 'user', entityId: session.user.id, label: auditLabel.user(session.user) }, now);
  });
}

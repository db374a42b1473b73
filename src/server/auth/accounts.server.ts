/**
 * Staff accounts (docs/decisions/010-staff-accounts-audit-day-list.md): password links (a reset,
 * 30 minutes, or an invitation, 48 hours) and the own password change.
 * Link tokens are 256 random bits; only their SHA-256 is stored. Asking
 * for a reset link: forgot.server.ts; setting a password from a link:
 * reset.server.ts.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { passwordTokens, users } from '../../../db/schema';
import type { PasswordLinkPurpose } from '../email/messages/account.server';
import type { PasswordChangeInput } from '../../lib/account-schemas';
import { AppError } from '../../lib/errors';
import { auditLabel } from '../audit-labels.server';
import { recordAudit } from '../audit.server';
import { dropUserChallenges } from './challenges.server';
import { reopenCodeStep } from './guessing.server';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.server';
import { revokeOtherSessions } from './sessions.server';
import { sha256Hex } from './tokens.server';

export const PASSWORD_LINK_TTL_MS: Record<PasswordLinkPurpose, number> = {
  reset: 30 * 60 * 1000,
  invitation: 48 * 60 * 60 * 1000,
};

export const WRONG_CURRENT_PASSWORD = 'Das aktuelle Passwort ist falsch.';

/** Stores a new link token for a user (only its SHA-256) and returns the token for the email. */
export async function insertPasswordToken(
  db: Database,
  userId: string,
  purpose: PasswordLinkPurpose,
  now: Date = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(passwordTokens).values({
    userId,
    purpose,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(now.getTime() + PASSWORD_LINK_TTL_MS[purpose]),
    createdAt: now,
  });
  return token;
}

/**
 * Issues a new link token for a user; any earlier unused token of the same
 * purpose stops working, so only the newest email's link is valid (an
 * invitation sent again). Reset links asked for through "Passwort
 * vergessen" do not retire earlier ones (forgot.server.ts).
 */
export async function issuePasswordToken(
  db: Database,
  userId: string,
  purpose: PasswordLinkPurpose,
  now: Date = new Date(),
): Promise<string> {
  await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordTokens.userId, userId), eq(passwordTokens.purpose, purpose), isNull(passwordTokens.usedAt)));
  return insertPasswordToken(db, userId, purpose, now);
}

/**
 * Retires every unused reset and invitation link of a user: run with every
 * password change, reset and accepted invitation, so a link mailed before
 * the password was set can never set it again.
 */
export async function retireUserLinks(db: Database, userId: string, now: Date = new Date()): Promise<void> {
  await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
}

/**
 * Own password change: the current password is required (401 otherwise);
 * all other sessions of the user end, the one making the change stays,
 * every open reset or invitation link of the user stops working, sign-ins
 * begun with the old password are void, and a code step closed after wrong
 * codes opens again (docs/decisions/037).
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
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, session.user.id));
    await revokeOtherSessions(tx, session.user.id, session.sessionId, now);
    await retireUserLinks(tx, session.user.id, now);
    await dropUserChallenges(tx, session.user.id);
    await reopenCodeStep(tx, session.user.id);
    await recordAudit(tx, session, { action: 'password-change', entity: 'user', entityId: session.user.id, label: auditLabel.user(session.user) }, now);
  });
}

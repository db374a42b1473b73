/**
 * Setting a password from a reset or invitation link (POST /api/auth/reset).
 *
 * Nothing is hashed for a link that cannot work (docs/decisions/013): one statement counts the client's attempt
 * (RESETS_PER_CLIENT) and looks the token up, and an unknown, used or
 * expired token is refused right there – a random-token reset costs what a
 * random-token cancel costs (`npm run bench:auth`). Only then is the new
 * password checked against the common-password list and hashed, and the token is claimed by one UPDATE that matches only
 * an unused, unexpired token, so a link works once even when used twice at
 * the same moment.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { passwordTokens, users } from '../../../db/schema';
import type { ResetPasswordInput } from '../../lib/account-schemas';
import { AppError } from '../../lib/errors';
import { auditLabel } from '../audit-labels.server';
import { recordAudit } from '../audit.server';
import { clientHit, takeRateLimit, type RateLimit } from '../rate-limit.server';
import { retireUserLinks } from './accounts.server';
import { dropUserChallenges } from './challenges.server';
import { reopenCodeStep } from './guessing.server';
import { assertUncommonPassword } from './password-policy.server';
import { hashPassword } from './password.server';
import { revokeOtherSessions } from './sessions.server';
import { sha256Hex } from './tokens.server';

/** Link uses per client (canonical address) within 15 minutes; a person needs one or two. */
export const RESETS_PER_CLIENT: RateLimit = { bucket: 'password-reset-client', max: 10, windowSeconds: 15 * 60 };

const linkUnusable = () => new AppError('not-found', 'Der Link ist ungültig, abgelaufen oder wurde bereits verwendet.');

/**
 * Sets the new password. Every session of the user ends (whoever knew the
 * old password is signed out), every other reset and invitation link of
 * the user stops working, a sign-in waiting for its code or passkey is
 * void, and a code step closed after wrong codes opens again.
 */
export async function resetPassword(db: Database, input: ResetPasswordInput, ip: string, now: Date = new Date()): Promise<void> {
  const tokenHash = sha256Hex(input.token);
  const usable = await takeRateLimit(
    db,
    [clientHit(RESETS_PER_CLIENT, ip)],
    now,
    'Zu viele Versuche von diesem Anschluss. Bitte versuchen Sie es später erneut.',
    sql`select exists (select 1 from ${passwordTokens} where ${passwordTokens.tokenHash} = ${tokenHash} and ${passwordTokens.usedAt} is null and ${passwordTokens.expiresAt} > ${now.toISOString()}::timestamptz)`,
  );
  if (usable !== true) throw linkUnusable();
  await assertUncommonPassword(input.password, 'password');
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordTokens.tokenHash, tokenHash), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, now)))
      .returning({ userId: passwordTokens.userId, purpose: passwordTokens.purpose });
    if (!claimed) throw linkUnusable();
    const [user] = await tx
      .update(users)
      // A password of their own: an invited colleague has signed up.
      .set({ passwordHash, invitationPending: false })
      .where(eq(users.id, claimed.userId))
      .returning({ id: users.id, email: users.email });
    if (!user) throw linkUnusable();
    await retireUserLinks(tx, user.id, now);
    await revokeOtherSessions(tx, user.id, undefined, now);
    // Whoever knew the old password: no sign-in they began finishes, and a closed code step opens again (docs/decisions/037).
    await dropUserChallenges(tx, user.id);
    await reopenCodeStep(tx, user.id);
    // Accepting an invitation is its own action (docs/decisions/020-reception.md), not a reset.
    const action = claimed.purpose === 'invitation' ? 'invitation-accept' : 'password-reset';
    await recordAudit(tx, { user }, { action, entity: 'user', entityId: user.id, label: auditLabel.user(user) }, now);
  });
}

/**
 * "Passwort vergessen" (docs/architecture.md, Security): the
 * answer is the same 202 for every address and never waits on the account
 * lookup or the email, which run after it (context.waitUntil). Strangers
 * can neither block an owner's recovery nor kill the owner's link: the only
 * 429 is per client, and an account holds up to MAX_LIVE_RESET_LINKS links
 * at once – further requests send nothing while those are valid (every one
 * of them reached the owner's mailbox), and none retires an earlier link.
 */
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { passwordTokens, users } from '../../../db/schema';
import { buildPasswordLinkEmail, passwordLinkUrl } from '../email/messages/account.server';
import { enqueueEmails } from '../email/queue.server';
import { clientHit, takeRateLimit, type RateLimit } from '../rate-limit.server';
import { insertPasswordToken } from './accounts.server';

/** Requests per client (canonical address) within an hour: plenty for one practice connection. */
export const FORGOT_PER_CLIENT: RateLimit = { bucket: 'forgot-client', max: 10, windowSeconds: 60 * 60 };
/** Reset links of one account valid at the same time. */
export const MAX_LIVE_RESET_LINKS = 3;

/**
 * Counts the request against its client's limit, or throws 429 with
 * Retry-After until the client's oldest request leaves the hour. The same
 * work for every address, known or not.
 */
export async function takeForgotAllowance(db: Database, ip: string, now: Date = new Date()): Promise<void> {
  await takeRateLimit(db, [clientHit(FORGOT_PER_CLIENT, ip)], now, 'Zu viele Anfragen von diesem Anschluss. Bitte versuchen Sie es später erneut.');
}

/**
 * Runs after the answer: when the address has an account with fewer than
 * MAX_LIVE_RESET_LINKS valid reset links, stores a new one and emails it.
 * The account row is locked while counting, so parallel requests cannot
 * together exceed the cap. The email is queued with the link; answers the
 * queued ids (none when nothing was issued).
 */
export async function sendResetLink(
  deps: { db: Database; siteUrl: string },
  address: string,
  now: Date = new Date(),
): Promise<string[]> {
  const issued = await deps.db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, address)).for('update');
    if (!user) return [];
    const [live] = await tx
      .select({ n: count() })
      .from(passwordTokens)
      .where(
        and(
          eq(passwordTokens.userId, user.id),
          eq(passwordTokens.purpose, 'reset'),
          isNull(passwordTokens.usedAt),
          gt(passwordTokens.expiresAt, now),
        ),
      );
    if ((live?.n ?? 0) >= MAX_LIVE_RESET_LINKS) return [];
    const token = await insertPasswordToken(tx, user.id, 'reset', now);
    // The link's email, queued with the link (docs/decisions/035).
    const message = buildPasswordLinkEmail({ purpose: 'reset', to: user.email, link: passwordLinkUrl(deps.siteUrl, token) });
    return enqueueEmails(tx, [{ message, kind: 'account-password-reset', audience: 'staff' }], undefined, now);
  });
  return issued;
}

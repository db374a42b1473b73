/**
 * Wrong codes at sign-in alert the owner (docs/decisions/037-passkeys-sessions-guessing.md).
 * Only someone who knows the password reaches the code step, so a wrong
 * code there is a sign the password is known. Counted per account over a
 * sliding 24 hours (`rate_limits`, keyed on an HMAC of the account id):
 *
 * - the 5th wrong code (TOTP or recovery) emails the owner, at most once a
 *   day ("Ihr Passwort wurde mit falschen Codes verwendet");
 * - the 30th closes the code step: 6-digit codes are refused (423
 *   `code-step-closed`) until the password is set anew (a reset by its
 *   emailed link, which ends every session, or a change under "Mein
 *   Konto"); a recovery code or a passkey still signs in.
 *
 * The limits of the code step (per account and client, per account, 15
 * minutes: totp-codes.server.ts) stay as they are; this counts on top.
 */
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { users } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit.server';
import { buildWrongCodesAlertEmail } from '../email/messages/account.server';
import { enqueueEmails } from '../email/queue.server';
import { clearHits, countHit, rateLimitKey, type RateLimit, type RateLimitHit } from '../rate-limit.server';
import { serverHashKey } from '../server-key.server';

/** Wrong codes per account within 24 hours: the owner is emailed at ALERT_AT, the code step closes at CLOSE_AT. */
export const WRONG_CODES_PER_DAY: RateLimit = { bucket: 'second-factor-wrong-day', max: 30, windowSeconds: 24 * 60 * 60 };
export const WRONG_CODES_ALERT_AT = 5;
export const WRONG_CODES_CLOSE_AT = WRONG_CODES_PER_DAY.max;
const DAY_MS = 24 * 60 * 60 * 1000;

export const CODE_STEP_CLOSED =
  'Nach zu vielen falschen Codes ist die Code-Eingabe für dieses Konto gesperrt. Legen Sie Ihr Passwort über „Passwort vergessen“ neu fest, oder melden Sie sich mit einem Wiederherstellungscode oder einem Passkey an.';

function dayHit(userId: string): RateLimitHit {
  return { limit: WRONG_CODES_PER_DAY, key: rateLimitKey(WRONG_CODES_PER_DAY, userId, serverHashKey()) };
}

/** 423 `code-step-closed`: the refusal of a 6-digit code while the code step is closed. */
export function codeStepClosed(): AppError {
  return new AppError('code-step-closed', CODE_STEP_CLOSED);
}

/** Whether the account's code step is closed. */
export async function isCodeStepClosed(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ closedAt: users.codeStepClosedAt }).from(users).where(eq(users.id, userId));
  return Boolean(row?.closedAt);
}

/**
 * Counts a wrong code of the account's sign-in and decides, in one
 * transaction with the count: the owner's alert (the 5th wrong code of 24
 * hours, once a day), queued in the email outbox by that same transaction,
 * and the closing of the code step (the 30th; audited on the account).
 * Answers the ids of the emails it queued (for deliverAfterResponse).
 */
export async function recordWrongCode(
  db: Database,
  user: { id: string; email: string },
  siteUrl: string,
  now: Date = new Date(),
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const wrongCodes = await countHit(tx, dayHit(user.id), now);
    let closed = false;
    if (wrongCodes >= WRONG_CODES_CLOSE_AT) {
      const rows = await tx
        .update(users)
        .set({ codeStepClosedAt: now })
        .where(and(eq(users.id, user.id), isNull(users.codeStepClosedAt)))
        .returning({ id: users.id });
      closed = rows.length > 0;
      if (closed) {
        await recordAudit(tx, { user }, { action: 'code-step-close', entity: 'user', entityId: user.id, label: `${user.email}: ${wrongCodes} falsche Codes in 24 Stunden` }, now);
      }
    }
    if (wrongCodes < WRONG_CODES_ALERT_AT) return [];
    // At most once a day: one UPDATE claims the day's alert, so two wrong codes at once send one email.
    const claimed = await tx
      .update(users)
      .set({ wrongCodeAlertAt: now })
      .where(and(eq(users.id, user.id), or(isNull(users.wrongCodeAlertAt), lte(users.wrongCodeAlertAt, new Date(now.getTime() - DAY_MS)))))
      .returning({ id: users.id });
    if (claimed.length === 0) return [];
    const message = buildWrongCodesAlertEmail({ to: user.email, siteUrl, wrongCodes, closed: wrongCodes >= WRONG_CODES_CLOSE_AT });
    return enqueueEmails(tx, [{ message, kind: 'account-wrong-codes', audience: 'staff' }]);
  });
}

/**
 * Opens the code step again and forgets the day's wrong codes: the
 * password the guesser knew no longer works (a reset by link, or the
 * owner's change). Part of the transaction that sets the password.
 */
export async function reopenCodeStep(db: Database, userId: string): Promise<void> {
  await db.update(users).set({ codeStepClosedAt: null, wrongCodeAlertAt: null }).where(eq(users.id, userId));
  await clearHits(db, dayHit(userId));
}


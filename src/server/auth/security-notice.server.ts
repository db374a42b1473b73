/**
 * The owner is told of every change to how their account signs in
 * (docs/decisions/041-staff-messages-devices-printouts.md): a second factor
 * or a passkey added or removed, a recovery code used. Queued in the
 * outbox (audience staff, German) by the change's own transaction, so the
 * change never stands without its notice; sent after the answer and by the
 * every-minute job. The email names account, what and when, never a secret.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { staffRecoveryCodes, users } from '../../../db/schema';
import { buildSecurityNoticeEmail, type SecurityEvent } from '../email/messages/account.server';
import { enqueueEmails } from '../email/queue.server';

/** Queues the notice of `event` to the account's owner; answers the outbox ids. */
export async function queueSecurityNotice(
  tx: Executor,
  userId: string,
  event: SecurityEvent,
  details: { passkeyName?: string } = {},
  now: Date = new Date(),
): Promise<string[]> {
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) return [];
  let codesLeft: number | undefined;
  if (event === 'recovery-code-used') {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(staffRecoveryCodes)
      .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
    codesLeft = Number(row?.n ?? 0);
  }
  const message = buildSecurityNoticeEmail({ to: user.email, event, at: now, ...details, ...(codesLeft !== undefined ? { codesLeft } : {}) });
  return enqueueEmails(tx, [{ message, kind: `account-${event}`, audience: 'staff' }], undefined, now);
}

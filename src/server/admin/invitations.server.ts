/**
 * Invitations of colleagues (docs/decisions/020-reception.md): the emailed link to set
 * a password, sent when a colleague is added with `invite` and sent again
 * (POST /api/admin/users/:id/invite) while the colleague has not signed up.
 * A new link retires the older one, so only the newest email works.
 */
import { and, eq, gt, isNull, max } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { passwordTokens, users } from '../../../db/schema';
import { buildPasswordLinkEmail, passwordLinkUrl } from '../email/messages/account.server';
import { AppError } from '../../lib/errors';
import { auditLabel } from '../audit-labels.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { issuePasswordToken } from '../auth/accounts.server';
import { enqueueEmails, type QueuedEmail } from '../email/queue.server';
import { INVITES_PER_ACCOUNT, invitationLimits, takeRateLimit } from '../rate-limit.server';
import { notFound } from './shared.server';

export interface InvitationMail {
  siteUrl: string;
  /** The inviting colleague's email, named in the invitation. */
  invitedBy: string;
}

/** The invitation email, queued in the transaction that issues its link (docs/decisions/035). */
export function invitationEmail(mail: InvitationMail, to: string, token: string): QueuedEmail {
  const message = buildPasswordLinkEmail({ purpose: 'invitation', to, link: passwordLinkUrl(mail.siteUrl, token), invitedBy: mail.invitedBy });
  return { message, kind: 'account-invitation', audience: 'staff' };
}

/** Until when a pending colleague's newest invitation link works (null when none is usable any more). */
export async function invitationExpiry(db: Database, userId: string, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ until: max(passwordTokens.expiresAt) })
    .from(passwordTokens)
    .where(and(eq(passwordTokens.userId, userId), eq(passwordTokens.purpose, 'invitation'), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, now)));
  return row?.until ?? null;
}

/** The 429 texts of the resend limits (the back office is German). */
export const TOO_MANY_INVITATIONS = {
  account: 'An diese Kollegin oder diesen Kollegen wurden in der letzten Stunde zu viele Einladungen gesendet. Bitte versuchen Sie es später erneut.',
  sender: 'Sie haben in der letzten Stunde zu viele Einladungen gesendet. Bitte versuchen Sie es später erneut.',
} as const;

/**
 * Sends a pending colleague a new invitation: a new link (48 hours) that
 * retires the old one, audited as `invite`. 404 for an unknown user, 409
 * `conflict` for one who has already signed up, 429 (with Retry-After)
 * beyond 5 resends an hour to one colleague or by one staff member
 * (docs/decisions/028-hidden-characters-addresses-invitations-origin.md); a refused resend counts
 * nothing, sends nothing and leaves the current link working.
 */
export async function resendInvitation(
  db: Database,
  actor: AuditActor,
  id: string,
  mail: InvitationMail,
  now: Date = new Date(),
): Promise<{ id: string; email: string; invitationSent: boolean; invited_until: string }> {
  const { user, token } = await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email, pending: users.invitationPending }).from(users).where(eq(users.id, id)).for('update');
    if (!user) throw notFound('user');
    if (!user.pending) throw new AppError('conflict', 'This colleague has already set a password; there is no invitation to send.');
    // Counted in this transaction: a refusal (or any later failure) keeps no hit and issues no link.
    await takeRateLimit(tx, invitationLimits({ accountId: user.id, senderId: actor.user.id }), now, (bucket) =>
      bucket === INVITES_PER_ACCOUNT.bucket ? TOO_MANY_INVITATIONS.account : TOO_MANY_INVITATIONS.sender,
    );
    const token = await issuePasswordToken(tx, user.id, 'invitation', now);
    await recordAudit(tx, actor, { action: 'invite', entity: 'user', entityId: user.id, label: auditLabel.user(user) }, now);
    await enqueueEmails(tx, [invitationEmail(mail, user.email, token)], undefined, now);
    return { user, token };
  });
  // Queued with the link: it goes out after the answer (and is retried until it does).
  const invitationSent = token !== '';
  const until = (await invitationExpiry(db, user.id, now))!;
  return { id: user.id, email: user.email, invitationSent, invited_until: until.toISOString() };
}

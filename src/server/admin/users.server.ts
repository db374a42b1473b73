/**
 * Staff accounts as admins manage them (/api/admin/users).
 * Every staff account is an admin (docs/decisions/010-staff-accounts-audit-day-list.md). A
 * colleague gets an initial password or an emailed invitation link (48 h);
 * removing one never removes the last admin.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { passwordTokens, staffSecondFactors, userRoles, users } from '../../../db/schema';
import type { NewUserInput } from '../../lib/account-schemas';
import { AppError } from '../../lib/errors';
import { auditLabel } from '../audit-labels.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { issuePasswordToken } from '../auth/accounts.server';
import { hashPassword } from '../auth/password.server';
import { invitationEmail, type InvitationMail } from './invitations.server';
import { enqueueEmails } from '../email/queue.server';
import { notFound } from './shared.server';

/** The same advisory lock as the first-admin setup: admins are added and removed one at a time. */
const ADMINS_LOCK = 727_005;

export interface StaffUserDto {
  id: string;
  email: string;
  created_at: string;
  /** `invited` until the colleague has set a password through a link. */
  status: 'active' | 'invited';
  /** Invited: until when the newest link works; null when it has expired (send it again). */
  invited_until: string | null;
  /** Whether the colleague has set up the second factor (docs/decisions/027-staff-second-factor.md). */
  second_factor: boolean;
}

export async function listUsers(db: Database, now: Date = new Date()): Promise<StaffUserDto[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      createdAt: users.createdAt,
      pending: users.invitationPending,
      invitedUntil: sql<Date | string | null>`(
        select max(t.expires_at) from ${passwordTokens} t
        where t.user_id = "users"."id" and t.purpose = 'invitation' and t.used_at is null and t.expires_at > ${now.toISOString()}::timestamptz)`,
      secondFactor: sql<boolean>`exists (select 1 from ${staffSecondFactors} f where f.user_id = "users"."id" and f.confirmed_at is not null)`.mapWith(
        (v: unknown) => v === true,
      ),
    })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .where(eq(userRoles.role, 'admin'))
    .orderBy(asc(users.email));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    created_at: r.createdAt.toISOString(),
    status: r.pending ? 'invited' : 'active',
    invited_until: r.pending && r.invitedUntil !== null ? new Date(r.invitedUntil).toISOString() : null,
    second_factor: r.secondFactor,
  }));
}

function emailTaken(): AppError {
  return new AppError('conflict', 'Diese E-Mail-Adresse ist bereits vergeben.');
}

/**
 * Adds a colleague as admin. With `invite`, the account gets a password
 * nobody knows and the colleague an email with a link to set their own;
 * the link is queued with the account and sent after the answer. A taken email is 409.
 */
export async function createStaffUser(
  db: Database,
  actor: AuditActor,
  input: NewUserInput,
  invite?: InvitationMail,
  now: Date = new Date(),
): Promise<{ user: { id: string; email: string }; invitationSent?: boolean }> {
  const passwordHash = await hashPassword(input.invite ? randomSecret() : input.password!);
  const created = await db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing) throw emailTaken();
    // Two concurrent adds of one address: the unique index decides, the loser gets 409.
    const inserted = await tx
      .insert(users)
      .values({ email: input.email, passwordHash, invitationPending: !!input.invite, createdAt: now })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id, email: users.email });
    const user = inserted[0];
    if (!user) throw emailTaken();
    await tx.insert(userRoles).values({ userId: user.id, role: 'admin' });
    const token = input.invite ? await issuePasswordToken(tx, user.id, 'invitation', now) : undefined;
    await recordAudit(tx, actor, { action: input.invite ? 'invite' : 'create', entity: 'user', entityId: user.id, label: auditLabel.user(user) }, now);
    // The invitation is queued with the account (docs/decisions/035): it goes out after the answer.
    if (token && invite) await enqueueEmails(tx, [invitationEmail(invite, user.email, token)], undefined, now);
    return { user, token };
  });
  if (!input.invite || !invite || !created.token) return { user: created.user };
  return { user: created.user, invitationSent: true };
}

/** A password nobody knows: the invited colleague can only sign in after setting their own. */
const randomSecret = () => randomBytes(32).toString('hex');

/**
 * Removes a colleague (their sessions and links go with them). Refused with
 * 409 `last-admin` when they are the only admin left who can sign in: a
 * pending invitation never counts (docs/decisions/019-mail-config-and-last-admin.md), since nobody may ever accept it. Decided under the admins'
 * advisory lock, so two admins removing each other at the same moment
 * cannot both succeed. A pending invitation itself can always be removed.
 */
export async function deleteStaffUser(db: Database, actor: AuditActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMINS_LOCK})`);
    const [target] = await tx
      .select({ id: users.id, email: users.email, pending: users.invitationPending })
      .from(users)
      .where(eq(users.id, id));
    if (!target) throw notFound('user');
    const [row] = await tx
      .select({ admins: sql<number>`count(*)`.mapWith(Number) })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(and(eq(userRoles.role, 'admin'), eq(users.invitationPending, false)));
    const [targetIsAdmin] = await tx
      .select({ id: userRoles.id })
      .from(userRoles)
      .where(and(eq(userRoles.userId, id), eq(userRoles.role, 'admin')));
    if (targetIsAdmin && !target.pending && (row?.admins ?? 0) <= 1) {
      throw new AppError('last-admin', 'Der letzte Admin-Benutzer kann nicht entfernt werden.');
    }
    await tx.delete(users).where(eq(users.id, id));
    await recordAudit(tx, actor, { action: 'delete', entity: 'user', entityId: id, label: auditLabel.user(target) });
  });
}

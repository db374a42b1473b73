/**
 * The passkeys of an account as "Mein Konto" lists and removes them
 * (docs/decisions/037-passkeys-sessions-guessing.md): name, created, last
 * used, never the key. Apart from passkeys.server.ts so that these routes
 * do not bundle the WebAuthn library.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { staffPasskeys } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { PasskeyDto } from '../../lib/passkey-schemas';
import { auditLabel } from '../audit-labels.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { confirmIdentity, type FactorProof } from './factor-proof.server';
import { queueSecurityNotice } from './security-notice.server';


export function toDto(row: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }): PasskeyDto {
  return { id: row.id, name: row.name, created_at: row.createdAt.toISOString(), last_used_at: row.lastUsedAt?.toISOString() ?? null };
}

/** The account's passkeys, oldest first: name, created, last used; never the key. */
export async function listPasskeys(db: Database, userId: string): Promise<PasskeyDto[]> {
  const rows = await db
    .select({ id: staffPasskeys.id, name: staffPasskeys.name, createdAt: staffPasskeys.createdAt, lastUsedAt: staffPasskeys.lastUsedAt })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.userId, userId))
    .orderBy(asc(staffPasskeys.createdAt), asc(staffPasskeys.id));
  return rows.map(toDto);
}

/** Removes one of one's own passkeys, after the current password or a fresh code (audited); 404 for none of this account. */
export async function removePasskey(
  db: Database,
  actor: AuditActor,
  passkeyId: string,
  proof: FactorProof,
  ip: string,
  now: Date = new Date(),
): Promise<void> {
  const [own] = await db
    .select({ id: staffPasskeys.id })
    .from(staffPasskeys)
    .where(and(eq(staffPasskeys.id, passkeyId), eq(staffPasskeys.userId, actor.user.id)));
  if (!own) throw new AppError('not-found', 'Unknown passkey.');
  await confirmIdentity(db, actor.user.id, proof, 'password-or-code', ip, now);
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(staffPasskeys)
      .where(and(eq(staffPasskeys.id, passkeyId), eq(staffPasskeys.userId, actor.user.id)))
      .returning({ name: staffPasskeys.name });
    if (!removed) throw new AppError('not-found', 'Unknown passkey.');
    await recordAudit(tx, actor, { action: 'passkey-remove', entity: 'user', entityId: actor.user.id, label: `${auditLabel.user(actor.user)}: ${removed.name}` }, now);
    await queueSecurityNotice(tx, actor.user.id, 'passkey-removed', { passkeyName: removed.name }, now);
  });
}

/**
 * The audit trail (docs/decisions/010-staff-accounts-audit-day-list.md): who changed what in the
 * back office, kept 12 months. Entries name the staff member, the action,
 * the kind of entity, its id and a readable label of it (a reference, a
 * name, an email: audit-labels.server.ts); never anything a patient entered.
 *
 * An admin endpoint records its change with one line, in the same
 * transaction as the change itself, so a change is never without its entry:
 *
 *   return json(await audited(db, session, { action: 'create', entity: 'inventory-item', label: auditLabel.item }, (tx) => createInventoryItem(tx, input)));
 */
import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { auditLog } from '../../db/schema';
import { fitLabel } from './audit-labels.server';
import { AUDIT_RETENTION_MONTHS, type AuditAction, type AuditEntity, type AuditQuery } from '../lib/audit';

/** Who acts: what requireAdmin / requireSession return. */
export interface AuditActor {
  user: { id: string; email: string };
}

export interface AuditEntry {
  action: AuditAction;
  entity: AuditEntity;
  entityId: string;
  /** What was changed, readable (audit-labels.server.ts); null when there is nothing to name. */
  label?: string | null;
}

export interface AuditEntryDto {
  id: number;
  user_id: string;
  user_email: string;
  action: AuditAction;
  entity: AuditEntity;
  entity_id: string;
  /** Null for entries written before labels existed. */
  label: string | null;
  at: string;
}

/** The oldest moment an entry may carry: 12 calendar months before now. */
export function auditCutoff(now: Date): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - AUDIT_RETENTION_MONTHS);
  return cutoff;
}

/**
 * Writes one entry and, in the same statement, purges entries past the
 * retention period, so the table never holds more than 12 months however
 * seldom the list is opened.
 */
export async function recordAudit(db: Database, actor: AuditActor, entry: AuditEntry, now: Date = new Date()): Promise<void> {
  await db.execute(sql`
    with purged as (delete from ${auditLog} where ${auditLog.at} < ${auditCutoff(now).toISOString()}::timestamptz)
    insert into ${auditLog} (user_id, user_email, action, entity, entity_id, label, at)
    values (${actor.user.id}, ${actor.user.email}, ${entry.action}, ${entry.entity}, ${entry.entityId}, ${fitLabel(entry.label)}, ${now.toISOString()}::timestamptz)`);
}

/** One changed thing, or each of several (a window for several weekdays in one step). */
type Each<T> = T extends ReadonlyArray<infer E> ? E : T;

/**
 * Runs a change and records it in one transaction. The entity id is the
 * given one (updates, deletes) or else the `id` of what the change returns
 * (creates); the label is given, or read from what the change returns
 * (`auditLabel.*`), so a delete returns what it deleted. A change that
 * returns a list (several rows made in one step) gets one entry per row.
 */
export async function audited<T>(
  db: Database,
  actor: AuditActor,
  entry: { action: AuditAction; entity: AuditEntity; entityId?: string; label?: string | ((result: Each<T>) => string | null | undefined) },
  change: (tx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await change(tx);
    const changed = (Array.isArray(result) ? result : [result]) as Array<Each<T>>;
    for (const one of changed) {
      const entityId = entry.entityId ?? String((one as { id?: unknown }).id);
      const label = typeof entry.label === 'function' ? entry.label(one) : entry.label;
      await recordAudit(tx, actor, { action: entry.action, entity: entry.entity, entityId, label });
    }
    return result;
  });
}

/** Newest first, at most `limit` entries, optionally of one user and/or one kind; purges expired entries first. */
export async function listAudit(db: Database, query: AuditQuery, now: Date = new Date(), limit = 500): Promise<AuditEntryDto[]> {
  await db.delete(auditLog).where(lt(auditLog.at, auditCutoff(now)));
  const filters: SQL[] = [];
  if (query.user) filters.push(eq(auditLog.userId, query.user));
  if (query.kind) filters.push(eq(auditLog.entity, query.kind));
  const rows = await db
    .select()
    .from(auditLog)
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    user_id: r.userId,
    user_email: r.userEmail,
    action: r.action as AuditAction,
    entity: r.entity as AuditEntity,
    entity_id: r.entityId,
    label: r.label,
    at: r.at.toISOString(),
  }));
}

/**
 * Which migrations this build was made with, and which the database has
 * applied: /api/health's `migrations` check and "Systemstatus" compare the
 * two (docs/decisions/045-operations.md).
 *
 * The journal is imported, so the bundler copies it into every function
 * that asks: a deployed function knows the newest migration of its own
 * release without reading files at run time. drizzle records each applied
 * migration with the journal's `when` as `created_at`
 * (drizzle.__drizzle_migrations), so "current" means the database's newest
 * `created_at` is at least this build's newest `when`; a newer one is fine
 * (migrations are expand-only: the release before keeps working while the
 * next one deploys).
 */
import { sql } from 'drizzle-orm';
import journal from './migrations/meta/_journal.json' with { type: 'json' };
import type { Executor } from './types';

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

const entries = (journal as { entries: JournalEntry[] }).entries;

/** The newest migration this build knows (largest `when`). */
export const bundledMigration: { tag: string; when: number } = entries.reduce((newest, e) => (e.when > newest.when ? e : newest));

/** The tag of a migration this build knows by its `when`, or null. */
export function migrationTagOf(when: number): string | null {
  return entries.find((e) => e.when === when)?.tag ?? null;
}

/** The newest migration the database has applied (its journal `when`), or null when none or no migrations table. */
export async function appliedMigrationWhen(db: Executor): Promise<number | null> {
  const result = await db.execute(sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`);
  const row = (result as unknown as { rows: Array<{ newest: string | null }> }).rows[0];
  return row?.newest ? Number(row.newest) : null;
}

/**
 * The every-minute job's heartbeat (docs/decisions/045-operations.md): one
 * row the job writes at the end of every run, with its outcome and the
 * names of the steps that threw. /api/health, "Systemstatus" and the alerts
 * read it.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { rowsOf } from '../../../db/rows';

/** /api/health: the job is `ok` when it ran (and succeeded) within this long. */
export const JOB_FRESH_MS = 3 * 60_000;
/** The job has stopped: /api/health says `failing` and the owner is alerted. */
export const JOB_MISSED_MS = 5 * 60_000;

export interface Heartbeat {
  ranAt: Date;
  outcome: 'ok' | 'failed';
  failedSteps: string[];
  durationMs: number;
}

export async function writeHeartbeat(db: Executor, beat: Heartbeat): Promise<void> {
  const failed = beat.failedSteps.length ? beat.failedSteps.join(',') : null;
  await db.execute(sql`
    insert into job_heartbeat (id, ran_at, outcome, failed_steps, duration_ms)
    values (true, ${beat.ranAt.toISOString()}::timestamptz, ${beat.outcome}, ${failed}, ${Math.round(beat.durationMs)})
    on conflict (id) do update set ran_at = excluded.ran_at, outcome = excluded.outcome,
      failed_steps = excluded.failed_steps, duration_ms = excluded.duration_ms`);
}

/** The last run, or null when the job never ran on this database. */
export async function readHeartbeat(db: Executor): Promise<Heartbeat | null> {
  const rows = rowsOf<{ ran_at: string; outcome: 'ok' | 'failed'; failed_steps: string | null; duration_ms: number }>(
    await db.execute(sql`select ran_at::text, outcome, failed_steps, duration_ms from job_heartbeat where id`),
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ranAt: new Date(row.ran_at),
    outcome: row.outcome,
    failedSteps: row.failed_steps ? row.failed_steps.split(',') : [],
    durationMs: Number(row.duration_ms),
  };
}

/**
 * Whether the job has stopped: it ran on this database, but not within 5
 * minutes. A job that never ran is not an alert (a fresh install would
 * alarm before its first minute); /api/health says `failing` for it.
 */
export function jobMissed(beat: Heartbeat | null, now: Date): boolean {
  return !!beat && now.getTime() - beat.ranAt.getTime() > JOB_MISSED_MS;
}

/**
 * The requests' part of the every-minute job (docs/decisions/036-patient-requests.md):
 * tells the practice of requests that arrived within the last notice's 15
 * minutes (notice.server.ts), and deletes the details of requests past
 * their time: 14 days after they were closed, 90 days after they arrived
 * if never closed; REQUEST_RETENTION_DAYS shortens both. Kind, dates,
 * status and the reference stay for the counts (and the status link). It
 * also forgets the duplicate keys past their 10 minutes (duplicates.server.ts).
 */
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../db/rows';
import { getDb } from '../database.server';
import { readEnv } from '../env.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { forgetDuplicateKeys } from './duplicates.server';

/** Days a closed request's details are kept. */
export const CLOSED_RETENTION_DAYS = 14;
/** Days any request's details are kept at the most. */
export const MAX_RETENTION_DAYS = 90;

export function retentionDays(shorter?: number): { closed: number; max: number } {
  return { closed: Math.min(CLOSED_RETENTION_DAYS, shorter ?? Infinity), max: Math.min(MAX_RETENTION_DAYS, shorter ?? Infinity) };
}

export interface RequestJobResult {
  /** Whether this run queued a notice to the practice (the job's delivery sends it). */
  noticed: boolean;
  /** Requests whose details were deleted. */
  purged: number;
  /** Requests whose duplicate key was forgotten. */
  keysForgotten: number;
}

/**
 * The job as the scheduled function and the local server run it. One
 * statement in a quiet minute (a cold job waits for every round trip):
 * the details of every request past its time deleted (its sealed values),
 * the duplicate keys past their window forgotten, and whether a request
 * waits to be told of. The two updates never touch one row, as a
 * statement's parts must not: a request whose details go loses its key
 * with them. Then, with a request waiting, the notice.
 */
export async function runRequestJob(now: Date = new Date()): Promise<RequestJobResult> {
  const env = readEnv();
  const db = await getDb();
  const days = retentionDays(env.REQUEST_RETENTION_DAYS);
  const at = now.toISOString();
  const [counts] = rowsOf<{ purged: number; keys_forgotten: number; untold: boolean }>(
    await db.execute(sql`
      with purged as (
        update patient_requests
        set key_id = null, sealed = null, message_key_id = null, message_sealed = null, duplicate_key = null, purged_at = ${at}::timestamptz
        where purged_at is null and (
          (closed_at is not null and closed_at <= ${at}::timestamptz - make_interval(days => ${days.closed}))
          or created_at <= ${at}::timestamptz - make_interval(days => ${days.max})
        )
        returning id),
      forgotten as (${forgetDuplicateKeys(now, sql`id not in (select id from purged)`)})
      select (select count(*) from purged)::int as purged, (select count(*) from forgotten)::int as keys_forgotten,
        exists (select 1 from patient_requests where not practice_noticed) as untold`),
  );
  const { purged, keys_forgotten: keysForgotten, untold } = counts!;
  if (purged) console.info(`purged: ${purged} request details`);
  // The notice's code loads with a request waiting to be told of, before its transaction locks anything.
  const notifying = untold ? await Promise.all([import('./notice.server'), import('../email/queue.server')]) : null;
  const noticed = notifying !== null && (await db.transaction(async (tx) => {
    const [{ claimPracticeNotice }, { enqueueEmails }] = notifying;
    const notice = await claimPracticeNotice(tx, { practiceEmail: env.PRACTICE_EMAIL, siteUrl: env.SITE_URL, now });
    if (!notice) return false;
    // Queuing seals the message: without a key the notice waits (the claim rolls back with it).
    const keys = await dataKeyRingIfAny();
    if (!keys) throw new Error('no data key: the practice notice waits');
    await enqueueEmails(tx, [notice], keys, now);
    return true;
  }).catch((error: unknown) => {
    console.warn(`requests notice not queued: ${(error as Error)?.name ?? 'unknown'}`);
    return false;
  }));
  return { noticed, purged, keysForgotten };
}

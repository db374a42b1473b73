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
import type { Database } from '../../../db/client';
import { rowsOf } from '../bookings/shared.server';
import { getDb } from '../database.server';
import { enqueueEmails } from '../email/queue.server';
import { readEnv } from '../env.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { forgetDuplicateKeys } from './duplicates.server';
import { claimPracticeNotice } from './notice.server';

/** Days a closed request's details are kept. */
export const CLOSED_RETENTION_DAYS = 14;
/** Days any request's details are kept at the most. */
export const MAX_RETENTION_DAYS = 90;

export function retentionDays(shorter?: number): { closed: number; max: number } {
  return { closed: Math.min(CLOSED_RETENTION_DAYS, shorter ?? Infinity), max: Math.min(MAX_RETENTION_DAYS, shorter ?? Infinity) };
}

/** Deletes the sealed values of every request past its time, in one statement; answers how many. */
export async function purgeRequestDetails(db: Database, now: Date = new Date(), shorter?: number): Promise<number> {
  const days = retentionDays(shorter);
  const at = now.toISOString();
  const result = await db.execute(sql`
    update patient_requests
    set key_id = null, sealed = null, message_key_id = null, message_sealed = null, purged_at = ${at}::timestamptz
    where purged_at is null and (
      (closed_at is not null and closed_at <= ${at}::timestamptz - make_interval(days => ${days.closed}))
      or created_at <= ${at}::timestamptz - make_interval(days => ${days.max})
    )
    returning id`);
  return rowsOf(result).length;
}

export interface RequestJobResult {
  /** Whether this run queued a notice to the practice (the job's delivery sends it). */
  noticed: boolean;
  /** Requests whose details were deleted. */
  purged: number;
  /** Requests whose duplicate key was forgotten. */
  keysForgotten: number;
}

/** The job as the scheduled function and the local server run it. */
export async function runRequestJob(now: Date = new Date()): Promise<RequestJobResult> {
  const env = readEnv();
  const db = await getDb();
  // Most minutes no request is waiting to be told of: one plain read then, instead of a transaction that claims nothing.
  const [waiting] = rowsOf<{ untold: boolean }>(await db.execute(sql`select exists (select 1 from patient_requests where not practice_noticed) as untold`));
  const noticed = waiting?.untold === true && (await db.transaction(async (tx) => {
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
  const purged = await purgeRequestDetails(db, now, env.REQUEST_RETENTION_DAYS);
  if (purged) console.info(`purged: ${purged} request details`);
  const keysForgotten = await forgetDuplicateKeys(db, now);
  return { noticed, purged, keysForgotten };
}

/**
 * The practice's notice of new requests (docs/decisions/036-patient-requests.md):
 * "2 neue Anfragen", no patient data, at most one per 15 minutes. A request
 * that arrives when the last notice is at least 15 minutes old is told at
 * once (its own transaction queues the notice); the ones that arrive within
 * the 15 minutes wait for the every-minute job, which tells them together
 * once the 15 minutes have passed.
 *
 * One statement claims the right to notify: it moves
 * `practice_settings.requests_noticed_at` to now only while unnoticed
 * requests exist and the last notice is old enough, and marks those
 * requests noticed. The claim takes the settings row's lock, so of two
 * requests or job runs at once one notifies and the other finds the time
 * moved on.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import type { QueuedEmail } from '../email/queue.server';
import { rowsOf } from '../bookings/shared.server';

/** At most one notice per this many minutes. */
export const NOTICE_INTERVAL_MINUTES = 15;

/**
 * Claims a notice for the requests not yet told of, or null when there are
 * none or the last notice is too recent. Runs in the caller's transaction;
 * the caller queues the message in it.
 */
export async function claimPracticeNotice(db: Executor, options: { practiceEmail: string; siteUrl: string; now?: Date }): Promise<QueuedEmail | null> {
  const now = (options.now ?? new Date()).toISOString();
  // The notice's texts, loaded before the claim locks the settings row and the requests (callers reach this only
  // with a request waiting to be told of: the job after its check, a new request after its insert).
  const { practiceRequestsNotice } = await import('../email/messages/requests.server');
  const result = await db.execute(sql`
    with claim as (
      insert into practice_settings as s (id, requests_noticed_at)
      select true, ${now}::timestamptz
      where exists (select 1 from patient_requests where not practice_noticed)
      on conflict (id) do update set requests_noticed_at = excluded.requests_noticed_at
      where s.requests_noticed_at is null
         or s.requests_noticed_at <= ${now}::timestamptz - make_interval(mins => ${NOTICE_INTERVAL_MINUTES})
      returning 1
    ),
    told as (
      update patient_requests set practice_noticed = true
      where not practice_noticed and exists (select 1 from claim)
      returning status
    )
    select
      (select count(*) from told)::int as fresh,
      (select count(*) from patient_requests where status in ('new', 'in_progress'))::int as open_count`);
  const [row] = rowsOf<{ fresh: number; open_count: number }>(result);
  const fresh = Number(row?.fresh ?? 0);
  if (fresh === 0) return null;
  return {
    message: practiceRequestsNotice({ fresh, open: Number(row!.open_count) }, options.practiceEmail, options.siteUrl),
    kind: 'requests-notice',
    audience: 'practice',
  };
}

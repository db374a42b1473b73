/**
 * "Systemstatus" (GET /api/admin/system; docs/decisions/045-operations.md):
 * what the owner needs to run the site without watching logs. Every figure
 * is a count, a time, a state or a name of ours (a step, an error's type),
 * never a patient's value or an address.
 */
import { execFileSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appliedMigrationWhen, bundledMigration, migrationTagOf } from '../../../db/migration-version';
import { rowsOf } from '../bookings/shared.server';
import { readEnv, variables } from '../env.server';
import { retentionDays } from '../requests/job.server';
import { BODY_RETENTION_MS } from '../email/delivery.server';
import { practiceMailBounced } from './alerts.server';
import { readHeartbeat } from './heartbeat.server';
import { outboxMaxAgeMs } from './health.server';
import { smsUsage } from '../sms/usage.server';

export interface ChannelFigures {
  /** Waiting for their first attempt. */
  pending: number;
  /** Refused at least once, waiting for the next attempt. */
  retrying: number;
  /** Given up in the last 24 hours. */
  failed_24h: number;
  /** When the oldest message still waiting was queued; null when none waits. */
  oldest_pending_at: string | null;
  /** The kind of the newest refusal in the last 7 days (an error's name or the service's code); null when none. */
  last_error: string | null;
}

export interface SystemStatus {
  job: { last_run_at: string | null; outcome: 'ok' | 'failed' | null; failed_steps: string[]; duration_ms: number | null };
  outbox: { email: ChannelFigures; sms: ChannelFigures; max_age_minutes: number };
  practice_mail: { bounced: boolean };
  /** SMS parts handed to the provider this Berlin month, the monthly limit, whether SMS is set up at all. */
  sms: { sent_this_month: number; limit: number; configured: boolean };
  held: { contacts: number; requests: number; waitlist: number };
  next_purge_at: string | null;
  migration: { applied: string | null; bundled: string; current: boolean };
  commit: string;
  node: string;
  db_ms: number;
}

const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

async function channelFigures(db: Database, now: Date): Promise<Record<'email' | 'sms', ChannelFigures>> {
  const at = now.toISOString();
  const rows = rowsOf<{ channel: string; pending: number; retrying: number; failed_24h: number; oldest: string | null; last_error: string | null }>(
    await db.execute(sql`
      select c.channel,
        (select count(*)::int from email_outbox o where o.channel = c.channel and o.status = 'pending' and o.attempts = 0) as pending,
        (select count(*)::int from email_outbox o where o.channel = c.channel and o.status = 'pending' and o.attempts > 0) as retrying,
        -- A message given up keeps the time of its last attempt's planned retry: within an hour of giving up.
        (select count(*)::int from email_outbox o where o.channel = c.channel and o.status = 'failed'
          and o.next_attempt_at > ${at}::timestamptz - interval '24 hours') as failed_24h,
        (select min(o.created_at)::text from email_outbox o where o.channel = c.channel and o.status = 'pending') as oldest,
        (select o.last_error from email_outbox o where o.channel = c.channel and o.last_error is not null
          and o.next_attempt_at > ${at}::timestamptz - interval '7 days' order by o.next_attempt_at desc limit 1) as last_error
      from (values ('email'), ('sms')) as c(channel)`),
  );
  const of = (channel: 'email' | 'sms'): ChannelFigures => {
    const r = rows.find((row) => row.channel === channel);
    return {
      pending: Number(r?.pending ?? 0),
      retrying: Number(r?.retrying ?? 0),
      failed_24h: Number(r?.failed_24h ?? 0),
      oldest_pending_at: iso(r?.oldest),
      // Only the kind: "unreadable: SealError" or "PostmarkError" (the outbox never stores a message text).
      last_error: r?.last_error ? r.last_error.replace(/[^A-Za-z0-9 :._-]/g, '').slice(0, 60) : null,
    };
  };
  return { email: of('email'), sms: of('sms') };
}

/** The sealed rows held and the earliest moment one of them is due for deletion (the job deletes it within a minute of that). */
async function heldFigures(db: Database): Promise<{ held: SystemStatus['held']; next_purge_at: string | null }> {
  let shorter: number | undefined;
  try {
    shorter = readEnv().REQUEST_RETENTION_DAYS;
  } catch {
    shorter = undefined;
  }
  const days = retentionDays(shorter);
  const rows = rowsOf<Record<string, string | number | null>>(
    await db.execute(sql`
      select
        (select count(*)::int from appointment_contacts) as contacts,
        (select count(*)::int from patient_requests where sealed is not null) as requests,
        (select count(*)::int from waitlist_entries) as waitlist,
        (select least(
          (select (min(b.appointment_date) + 1)::timestamp at time zone 'Europe/Berlin'
            from appointment_contacts c join booked_slots b on b.id = c.booking_id),
          (select (min(least(e.to_date, coalesce(b.appointment_date, e.to_date))) + 1)::timestamp at time zone 'Europe/Berlin'
            from waitlist_entries e left join booked_slots b on b.id = e.booking_id),
          (select min(least(coalesce(closed_at + make_interval(days => ${days.closed}), 'infinity'), created_at + make_interval(days => ${days.max})))
            from patient_requests where purged_at is null and sealed is not null),
          (select min(coalesce(sent_at, created_at)) + make_interval(secs => ${BODY_RETENTION_MS / 1000})
            from email_outbox where sealed is not null and status <> 'pending')
        ))::text as next_purge_at`),
  );
  const r = rows[0]!;
  return {
    held: { contacts: Number(r.contacts), requests: Number(r.requests), waitlist: Number(r.waitlist) },
    next_purge_at: iso(r.next_purge_at as string | null),
  };
}

let localCommit: string | undefined;

/** The deployed commit: Netlify's COMMIT_REF; locally git's, or "lokal". */
export function deployedCommit(): string {
  const ref = variables().COMMIT_REF;
  if (ref) return ref.slice(0, 12);
  localCommit ??= (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || 'lokal';
    } catch {
      return 'lokal';
    }
  })();
  return localCommit;
}

export async function systemStatus(db: Database, now: Date = new Date()): Promise<SystemStatus> {
  const started = performance.now();
  const applied = await appliedMigrationWhen(db);
  const dbMs = performance.now() - started;
  const [beat, channels, bounced, held, sms] = await Promise.all([
    readHeartbeat(db),
    channelFigures(db, now),
    practiceMailBounced(db),
    heldFigures(db),
    smsUsage(db, now),
  ]);
  return {
    job: {
      last_run_at: beat?.ranAt.toISOString() ?? null,
      outcome: beat?.outcome ?? null,
      failed_steps: beat?.failedSteps ?? [],
      duration_ms: beat?.durationMs ?? null,
    },
    outbox: { ...channels, max_age_minutes: Math.round(outboxMaxAgeMs() / 60_000) },
    practice_mail: { bounced },
    sms,
    ...held,
    migration: {
      applied: applied === null ? null : (migrationTagOf(applied) ?? String(applied)),
      bundled: bundledMigration.tag,
      current: applied !== null && applied >= bundledMigration.when,
    },
    commit: deployedCommit(),
    node: process.version,
    db_ms: Math.round(dbMs * 10) / 10,
  };
}

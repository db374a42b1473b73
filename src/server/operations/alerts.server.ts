/**
 * Operations alerts (docs/decisions/045-operations.md): the owner
 * (ALERT_EMAIL, default PRACTICE_EMAIL) and every admin who opted in under
 * "Mein Konto" are told when
 *
 * - the every-minute job has not run for 5 minutes (`job`),
 * - a message waits in the outbox longer than HEALTH_OUTBOX_MAX_AGE_MINUTES (`outbox`),
 * - the data key cannot open the newest sealed row (`keys`),
 * - the practice's own address bounces or complains (`practice-mail`),
 *
 * at most once per kind per hour, and once more when it is over
 * (src/lib/operations-alerts.ts). The state lives in `operations_alerts`
 * (serverless instances share nothing else); a transition locks its row,
 * so two instances never announce one change twice.
 *
 * Checked by the job at the end of every run, and, when the job's
 * heartbeat is stale, by whatever request comes next (watch.server.ts).
 * Nothing is written while nothing changes.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { ALERT_KINDS, alertStep, type AlertKind, type AlertMessage, type AlertState } from '../../lib/operations-alerts';
import { fromJson, rowsOf } from '../../../db/rows';
import { runDelivery } from '../email/delivery.server';
import { readEnv } from '../env.server';
import { jobMissed, readHeartbeat } from './heartbeat.server';
import { keysOpen, keysWork, newestSealedQuery, outboxMaxAgeMs, overdueFrom, overdueOutbox, overdueOutboxQuery, type Overdue, type OverdueRow, type SealedRow } from './health.server';
import type { QueuedAlert } from './alert-delivery.server';

/** Whether each kind's condition holds now; a kind left out is not judged this time. */
export type AlertConditions = Partial<Record<AlertKind, boolean>>;

/**
 * Whether the practice's own address refuses mail: its newest bounce, spam
 * complaint or failure is not followed by a delivery to it (the dashboard's
 * banner uses the same rule).
 */
export async function practiceMailBounced(db: Executor): Promise<boolean> {
  const rows = rowsOf<{ bounced: boolean }>(await db.execute(sql`select ${practiceMailBouncedQuery} as bounced`));
  return rows[0]?.bounced === true;
}

/** practiceMailBounced's condition, as an expression. */
const practiceMailBouncedQuery = sql`
  exists (
    select 1 from email_outbox o
    where o.audience = 'practice' and o.channel = 'email' and o.status in ('bounced', 'complained', 'failed')
      and not exists (select 1 from email_outbox d where d.audience = 'practice' and d.channel = 'email' and d.status = 'delivered'
        and d.event_at > coalesce(o.event_at, o.created_at)))`;

interface Reads {
  beat: Awaited<ReturnType<typeof readHeartbeat>>;
  overdue: Overdue;
  keys: boolean;
  bounced: boolean;
}

/** Every kind's condition, judged now by a request (the job judges them in checkAlertsFromJob). */
async function currentConditions(db: Executor, now: Date): Promise<{ conditions: AlertConditions; emailStuck: boolean }> {
  // One read after another on one connection, as the health check does (health.server.ts).
  const beat = await readHeartbeat(db);
  const overdue = await overdueOutbox(db, now);
  const keys = await keysWork(db);
  const bounced = await practiceMailBounced(db);
  return conditionsFrom({ beat, overdue, keys, bounced }, now, false);
}

/** Every kind's condition from the reads; `job` from the heartbeat unless the caller is the job itself (which is running). */
function conditionsFrom({ beat, overdue, keys, bounced }: Reads, now: Date, jobRunning: boolean): { conditions: AlertConditions; emailStuck: boolean } {
  const limit = outboxMaxAgeMs();
  const emailStuck = (overdue.email ?? 0) > limit;
  return {
    conditions: {
      job: jobRunning ? false : jobMissed(beat, now),
      outbox: emailStuck || (overdue.sms ?? 0) > limit,
      keys: !keys,
      'practice-mail': bounced,
    },
    emailStuck,
  };
}

interface AlertRow {
  kind: string;
  since: string | null;
  alerted_at: string | null;
  episode_alerted: boolean;
  cleared_at: string | null;
}

const date = (value: string | null) => (value ? new Date(value) : null);
const stateOf = (row: AlertRow | undefined): AlertState => ({
  since: date(row?.since ?? null),
  alertedAt: date(row?.alerted_at ?? null),
  episodeAlerted: row?.episode_alerted ?? false,
  clearedAt: date(row?.cleared_at ?? null),
});

async function readStates(db: Executor, kinds: AlertKind[], lock: boolean): Promise<Map<string, AlertRow>> {
  return statesMap(rowsOf<AlertRow>(await db.execute(lock ? sql`${statesQuery(kinds)} for update` : statesQuery(kinds))));
}

function statesQuery(kinds: readonly AlertKind[]): SQL {
  const list = `{${kinds.join(',')}}`;
  return sql`select kind, since::text, alerted_at::text, episode_alerted, cleared_at::text from operations_alerts where kind = any(${list}::text[])`;
}

const statesMap = (rows: AlertRow[]) => new Map(rows.map((r) => [r.kind, r]));

export interface AlertOutcome {
  kind: AlertKind;
  message: AlertMessage;
}

/**
 * Applies the conditions: each kind whose state changes is written, and
 * its message queued, in one transaction that holds the kind's row; then
 * the queued messages are sent at once. Answers what was sent.
 */
export async function applyAlerts(
  db: Database,
  conditions: AlertConditions,
  now: Date,
  { emailStuck = false, states }: { emailStuck?: boolean; states?: Map<string, AlertRow> } = {},
): Promise<AlertOutcome[]> {
  const kinds = ALERT_KINDS.filter((k) => conditions[k] !== undefined);
  if (kinds.length === 0) return [];
  // Without a lock first (or as the caller read them): when nothing changes (almost always), nothing is written.
  const seen = states ?? (await readStates(db, kinds, false));
  const changing = kinds.filter((k) => alertStep(stateOf(seen.get(k)), conditions[k]!, now).next !== null);
  if (changing.length === 0) return [];

  const sent: AlertOutcome[] = [];
  const queued: QueuedAlert[] = [];
  const env = readEnv();
  // The messages and their senders load when a state changes (rarely), before the transaction.
  const { queueAlert, sendAlertsDirectly } = await import('./alert-delivery.server');
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into operations_alerts (kind) select unnest(${`{${changing.join(',')}}`}::text[]) on conflict (kind) do nothing`);
    const locked = await readStates(tx, changing, true);
    const recipients = await alertRecipients(tx, env.ALERT_EMAIL ?? env.PRACTICE_EMAIL);
    for (const kind of changing) {
      const state = stateOf(locked.get(kind));
      const step = alertStep(state, conditions[kind]!, now);
      if (!step.next) continue;
      await tx.execute(sql`
        update operations_alerts set since = ${step.next.since?.toISOString() ?? null}::timestamptz,
          alerted_at = ${step.next.alertedAt?.toISOString() ?? null}::timestamptz,
          episode_alerted = ${step.next.episodeAlerted}, cleared_at = ${step.next.clearedAt?.toISOString() ?? null}::timestamptz
        where kind = ${kind}`);
      if (!step.message) continue;
      const alert = { kind, message: step.message, since: state.since ?? now, now, siteUrl: env.SITE_URL, emailStuck };
      queued.push(await queueAlert(tx, alert, recipients));
      sent.push({ kind, message: step.message });
    }
  });
  for (const outcome of sent) console.info(`operations alert: ${outcome.kind} ${outcome.message}`);
  // Out at once, not a minute later; alerts that could not be sealed go straight to the mail service.
  const ids = queued.flatMap((q) => q.ids);
  if (ids.length) await runDelivery({ ids, now });
  await sendAlertsDirectly(queued.filter((q) => q.direct.length > 0 || (q.directSms?.length ?? 0) > 0));
  return sent;
}

/** The owner's address and every admin's who opted in, each once (compared in lower case). */
export async function alertRecipients(db: Executor, owner: string): Promise<string[]> {
  const rows = rowsOf<{ email: string }>(
    await db.execute(sql`
      select u.email from users u
      where u.operations_alerts and not u.invitation_pending
        and exists (select 1 from user_roles r where r.user_id = u.id and r.role = 'admin')
      order by u.email`),
  );
  const out: string[] = [owner];
  for (const { email } of rows) if (!out.some((o) => addressOf(o) === email.toLowerCase())) out.push(email);
  return out;
}

/** The address inside `Name <address>`, lower-cased. */
function addressOf(mailbox: string): string {
  return (/<([^>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox).trim().toLowerCase();
}

/**
 * The job's own check at the end of its run: every kind, the job itself as
 * running. Its reads and the alerts' states in one statement (a cold job
 * waits for every round trip).
 */
export async function checkAlertsFromJob(db: Database, now: Date): Promise<AlertOutcome[]> {
  const [row] = rowsOf<{ overdue: OverdueRow[]; newest: SealedRow | null; bounced: boolean; states: AlertRow[] }>(
    await db.execute(sql`
      select (select coalesce(json_agg(o), '[]'::json) from (${overdueOutboxQuery(now)}) o) as overdue,
        (select row_to_json(n) from (${newestSealedQuery}) n) as newest,
        ${practiceMailBouncedQuery} as bounced,
        (select coalesce(json_agg(s), '[]'::json) from (${statesQuery(ALERT_KINDS)}) s) as states`),
  );
  const reads = { beat: null, overdue: overdueFrom(fromJson(row!.overdue), now), keys: keysOpen(fromJson(row!.newest)), bounced: row!.bounced };
  const { conditions, emailStuck } = conditionsFrom(reads, now, true);
  return applyAlerts(db, conditions, now, { emailStuck, states: statesMap(fromJson(row!.states)) });
}

/**
 * A request's check (watch.server.ts): one read of the heartbeat; only
 * when the job has stopped are the other kinds judged too (nobody else
 * judges them then).
 */
export async function checkAlertsFromRequest(db: Database, now: Date): Promise<AlertOutcome[]> {
  if (!jobMissed(await readHeartbeat(db), now)) return [];
  const { conditions, emailStuck } = await currentConditions(db, now);
  return applyAlerts(db, conditions, now, { emailStuck });
}

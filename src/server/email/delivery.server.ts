/**
 * Sending what the outbox holds (docs/decisions/035-email-outbox.md): right
 * after the answer of the request that queued it (the runtime's waitUntil)
 * and every minute from the scheduled job, for whatever is still due.
 *
 * - Claimed with a lease: one statement takes due rows `FOR UPDATE SKIP
 *   LOCKED` and sets `lease_until`; a concurrent run skips them until the
 *   lease has passed, so two runs never send one message at once.
 * - A process that dies between sending and marking leaves its lease to
 *   run out; the next run sends the message again (at most one duplicate
 *   per crash) and logs that it may have gone twice.
 * - A refusal waits 1, 5, 15, 60 minutes, then an hour each time, up to 24
 *   hours after the message was queued; then it is `failed`. A permanent
 *   refusal (an address the service will never accept) fails at once.
 * - A patient's message that finally fails marks its booking for a call
 *   (patient_notified false); the practice's, `practice_notified` false.
 *   The webhook (webhook.server.ts) does the same for bounces.
 * - Logged by kind only: the row's id, its kind and the error's name, never
 *   an address or a text.
 *
 * One loop, two channels (docs/decisions/043-sms-second-channel.md): a row
 * is an email or an SMS, each handed to its channel's sender. An SMS waits
 * out the quiet hours (unless it may go at night), counts its parts
 * against the month's limit before it goes (at the limit it fails and the
 * booking asks for a call; the owner is told once a month), and gives them
 * back when the provider refuses it. A patient's email that finally fails
 * sends the SMS it carries (fallback.server.ts) where the patient agreed to
 * SMS; only when there is none does the booking ask for a call.
 */
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { dataKeyRingIfAny, type KeyRing } from '../appointment-contact/keys.server';
import { getDb } from '../database.server';
import { afterResponse, type RequestContext } from '../http.server';
import { rowsOf } from '../../../db/rows';
import { createEmailSender } from './email.server';
import type { EmailSender } from './port.server';
import { openQueued, type MailAudience } from './queue.server';
import type { SmsSender } from '../sms/port.server';
import { inQuietHours, quietHoursEnd } from '../sms/quiet-hours.server';
import { openQueuedSms } from '../sms/queue.server';
import { createSmsSender, smsAnyHour, smsMonthlyLimit } from '../sms/sms.server';
import { countParts, giveBackParts, noticeLimitReached } from '../sms/usage.server';
import { emailUndelivered, markBookingUndelivered } from './fallback.server';

/** Minutes to wait after the 1st, 2nd, 3rd, 4th refusal; an hour after each later one. */
export const RETRY_MINUTES = [1, 5, 15, 60] as const;
/** A message is retried up to this long after it was queued. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** How long a claim holds: far longer than one send (the Postmark client times out after 10 s). */
export const LEASE_MS = 2 * 60_000;
/** Sends in flight at once within one run. */
const PARALLEL_SENDS = 8;

export function retryDelayMs(attempts: number): number {
  return (RETRY_MINUTES[attempts - 1] ?? 60) * 60_000;
}

/** Refusals no retry can mend: the service will never take this address or message. */
export function isPermanentRefusal(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return (
    name === 'UndeliverableError' ||
    name === 'EmailHeaderError' ||
    name === 'InactiveRecipientsError' ||
    name === 'InvalidEmailRequestError' ||
    name === 'SmsRefusedError'
  );
}

interface ClaimedRow {
  id: string;
  kind: string;
  audience: MailAudience;
  channel: 'email' | 'sms';
  quiet_exempt: boolean;
  booking_id: string | null;
  key_id: string | null;
  sealed: string | null;
  attempts: number;
  created_at: string;
  /** A lease from an earlier attempt that never finished (its process died): the message may have gone. */
  unfinished: boolean;
}

export interface DeliveryOptions {
  /** The email channel's sender; email rows are left waiting without one. */
  sender?: EmailSender | null;
  /**
   * The SMS channel's sender: SMS rows are left alone when absent (a caller
   * that only sends email); null when SMS is not offered, and then every
   * queued SMS fails and its booking asks for a call.
   */
  sms?: SmsSender | null;
  /** Null when no key is configured: nothing can be opened, messages wait. */
  keys: KeyRing | null;
  now?: Date;
  /** Only these rows, or only the rows of this booking (what a request just queued); all due rows when absent. */
  ids?: string[];
  bookingId?: string;
  /** Rows claimed per statement. */
  batchSize?: number;
  /** At most this many statements' worth of rows (work after an answer stays short; the job does the rest). */
  maxBatches?: number;
}

export interface DeliveryResult {
  sent: number;
  /** Refused, to be tried again later. */
  retrying: number;
  /** Given up: permanently refused, 24 hours of refusals, or no key opens it. */
  failed: number;
}

async function claim(
  db: Executor,
  now: Date,
  batchSize: number,
  scope: Pick<DeliveryOptions, 'ids' | 'bookingId'>,
  skip: string[],
  channels: Array<'email' | 'sms'>,
): Promise<ClaimedRow[]> {
  const only = scope.ids
    ? sql`and o.id = any(${`{${scope.ids.join(',')}}`}::uuid[])`
    : scope.bookingId
      ? sql`and o.booking_id = ${scope.bookingId}::uuid`
      : sql``;
  const except = skip.length ? sql`and not (o.id = any(${`{${skip.join(',')}}`}::uuid[]))` : sql``;
  const result = await db.execute(sql`
    with due as (
      select o.id, o.lease_until is not null as unfinished
      from email_outbox o
      where o.status = 'pending' and o.next_attempt_at <= ${now.toISOString()}::timestamptz
        and (o.lease_until is null or o.lease_until <= ${now.toISOString()}::timestamptz)
        and o.channel = any(${`{${channels.join(',')}}`}::text[])
        ${only} ${except}
      order by o.next_attempt_at
      limit ${batchSize}
      for update skip locked
    )
    update email_outbox e
    set lease_until = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz, attempts = e.attempts + 1
    from due
    where e.id = due.id
    returning e.id, e.kind, e.audience, e.channel, e.quiet_exempt, e.booking_id, e.key_id, e.sealed, e.attempts, e.created_at::text, due.unfinished`);
  return rowsOf<ClaimedRow>(result);
}

/** Marks the messages a group handed over, in one statement (a burst of sends costs the database one round trip). */
async function markSent(db: Executor, sent: Array<{ id: string; providerId: string; parts?: number }>, now: Date): Promise<void> {
  if (sent.length === 0) return;
  await db.execute(sql`
    update email_outbox e set status = 'sent', provider_id = m.provider_id, sent_at = ${now.toISOString()}::timestamptz,
      lease_until = null, last_error = null, parts = coalesce(m.parts, e.parts)
    from json_to_recordset(${JSON.stringify(sent.map((m) => ({ id: m.id, provider_id: m.providerId, parts: m.parts ?? null })))}::json) as m(id uuid, provider_id text, parts smallint)
    where e.id = m.id and e.status = 'pending'`);
}

export { markBookingUndelivered };

/**
 * A refusal: tried again after its delay, or given up (permanent, past 24
 * hours); a given-up patient email sends its SMS where it carries one, any
 * other given-up message about a booking marks it for a call.
 */
async function markRefused(db: Database, row: ClaimedRow, reason: string, permanent: boolean, now: Date, keys: KeyRing | null): Promise<'retrying' | 'failed'> {
  let next = new Date(now.getTime() + retryDelayMs(row.attempts));
  // An SMS retried into the quiet hours waits for the morning.
  if (row.channel === 'sms' && !row.quiet_exempt && !smsAnyHour()) next = quietHoursEnd(next);
  const giveUp = permanent || next.getTime() > new Date(row.created_at).getTime() + GIVE_UP_AFTER_MS;
  await db.transaction(async (tx) => {
    const updated = await tx.execute(sql`
      update email_outbox set lease_until = null, last_error = ${reason.slice(0, 60)},
        status = ${giveUp ? 'failed' : 'pending'}, next_attempt_at = ${next.toISOString()}::timestamptz
      where id = ${row.id}::uuid and status = 'pending'
      returning id`);
    if (giveUp && rowsOf(updated).length) await emailUndelivered(tx, row, keys, now);
  });
  console.warn(`${row.channel} ${row.id} (${row.kind}) ${giveUp ? 'failed' : `refused (attempt ${row.attempts})`}: ${reason}`);
  return giveUp ? 'failed' : 'retrying';
}

const nameOf = (error: unknown) => (error as Error | undefined)?.name ?? 'unknown';

type Outcome = { providerId: string; parts?: number } | 'retrying' | 'failed' | 'deferred';

/** Hands one message to its channel's sender: its provider id, or how the refusal was recorded. */
async function deliverOne(db: Database, row: ClaimedRow, options: DeliveryOptions): Promise<Outcome> {
  const clock = () => options.now ?? new Date();
  if (row.unfinished) console.warn(`${row.channel} ${row.id} (${row.kind}): an earlier attempt did not finish; it may arrive twice`);
  if (row.channel === 'sms') return deliverSms(db, row, options, clock);
  let message;
  try {
    if (!options.keys) throw new Error('no key configured');
    message = openQueued({ id: row.id, keyId: row.key_id!, sealed: row.sealed! }, options.keys);
  } catch (error) {
    // No configured key opens it (removed, or none at all): it can never be sent.
    return markRefused(db, row, `unreadable: ${nameOf(error)}`, true, clock(), options.keys);
  }
  try {
    return { providerId: (await options.sender!.send(message)).id };
  } catch (error) {
    return markRefused(db, row, nameOf(error), isPermanentRefusal(error), clock(), options.keys);
  }
}

/** An SMS row that is not to go yet (quiet hours): back to waiting, its claim not counted as an attempt. */
async function defer(db: Database, row: ClaimedRow, until: Date): Promise<'deferred'> {
  await db.execute(sql`
    update email_outbox set lease_until = null, attempts = greatest(0, attempts - 1), next_attempt_at = ${until.toISOString()}::timestamptz
    where id = ${row.id}::uuid and status = 'pending'`);
  return 'deferred';
}

/**
 * One SMS: opened, held back in the quiet hours, counted against the
 * month's limit (at the limit: failed, the booking marked for a call, the
 * owner told once), then handed to the provider; a refusal gives its parts
 * back.
 */
async function deliverSms(db: Database, row: ClaimedRow, options: DeliveryOptions, clock: () => Date): Promise<Outcome> {
  const now = clock();
  let message;
  try {
    if (!options.keys) throw new Error('no key configured');
    message = openQueuedSms({ id: row.id, keyId: row.key_id!, sealed: row.sealed! }, options.keys);
  } catch (error) {
    return markRefused(db, row, `unreadable: ${nameOf(error)}`, true, now, options.keys);
  }
  if (!options.sms) return markRefused(db, row, 'sms-not-configured', true, now, options.keys);
  if (!row.quiet_exempt && !smsAnyHour() && inQuietHours(now)) return defer(db, row, quietHoursEnd(now));
  // The GSM alphabet's tables load with the first SMS a process sends.
  const parts = (await import('../sms/gsm.server')).partsOf(message.text);
  const limit = smsMonthlyLimit();
  if (!(await countParts(db, parts, limit, now))) {
    if (options.keys) await noticeLimitReached(db, options.keys, limit, now);
    return markRefused(db, row, 'monthly-limit', true, now, options.keys);
  }
  try {
    return { providerId: (await options.sms.send(message)).id, parts };
  } catch (error) {
    await giveBackParts(db, parts, now);
    return markRefused(db, row, nameOf(error), isPermanentRefusal(error), clock(), options.keys);
  }
}

/** Sends every due message once (or only `ids`); safe to run several times at once. */
export async function deliverQueued(db: Database, options: DeliveryOptions): Promise<DeliveryResult> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? 50;
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0 };
  const done: string[] = [];
  const channels = [...(options.sender ? (['email'] as const) : []), ...(options.sms !== undefined ? (['sms'] as const) : [])];
  if (channels.length === 0) return result;
  let gaveUpPatientEmail = false;
  for (let batch = 1; ; batch++) {
    const rows = await claim(db, now, batchSize, options, done, channels);
    for (let i = 0; i < rows.length; i += PARALLEL_SENDS) {
      const group = rows.slice(i, i + PARALLEL_SENDS);
      const outcomes = await Promise.all(group.map((row) => deliverOne(db, row, options)));
      const sent: Array<{ id: string; providerId: string; parts?: number }> = [];
      outcomes.forEach((outcome, j) => {
        if (outcome === 'failed' && group[j]!.channel === 'email' && group[j]!.audience === 'patient') gaveUpPatientEmail = true;
        if (outcome === 'deferred') return;
        if (typeof outcome === 'string') result[outcome]++;
        else sent.push({ id: group[j]!.id, providerId: outcome.providerId, parts: outcome.parts });
      });
      await markSent(db, sent, options.now ?? new Date());
      result.sent += sent.length;
    }
    done.push(...rows.map((r) => r.id));
    // A patient email given up in this batch may have queued its SMS: one more round sends it.
    const again = options.sms !== undefined && gaveUpPatientEmail;
    gaveUpPatientEmail = false;
    if ((rows.length < batchSize && !again) || batch === options.maxBatches) return result;
  }
}

/**
 * The delivery with this process's database, senders and keys: emails
 * wait while email is not configured; SMS go through the provider, the
 * local stand-in, or (not offered) fail to the call list.
 */
export async function runDelivery(options: Omit<DeliveryOptions, 'sender' | 'sms' | 'keys'> = {}): Promise<DeliveryResult> {
  let sender: EmailSender | null = null;
  try {
    sender = createEmailSender();
  } catch (error) {
    console.warn(`emails wait: email is not configured (${(error as Error)?.name ?? 'unknown'})`);
  }
  let sms: SmsSender | null = null;
  try {
    sms = createSmsSender();
  } catch (error) {
    console.warn(`sms wait: the environment is not configured (${(error as Error)?.name ?? 'unknown'})`);
    if (!sender) return { sent: 0, retrying: 0, failed: 0 };
    return deliverQueued(await getDb(), { sender, keys: await dataKeyRingIfAny(), ...options });
  }
  return deliverQueued(await getDb(), { sender, sms, keys: await dataKeyRingIfAny(), ...options });
}

/**
 * This process's delivery after answers: one loop at a time. A request
 * that queued mail starts it or, while it runs, asks it to go round once
 * more; each request's waitUntil waits for the loop, so a serverless
 * instance stays up until its messages are out. Under a burst of requests
 * the deliveries never take more than one database connection of the
 * process from the requests themselves.
 */
let running: Promise<void> | null = null;
let again = false;

function pump(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      await runDelivery({ maxBatches: 2 });
    } while (again);
  })().finally(() => {
    running = null;
  });
  return running;
}

/** After the answer: send what is due, this request's messages among them (the job sends whatever is left). */
export function deliverAfterResponse(ctx: RequestContext): void {
  afterResponse(ctx, 'email delivery', pump);
}

/** A sent message's body is kept this long (to resend or inspect), then deleted. */
export const BODY_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** A message about no booking (an account email) is forgotten this long after it was queued. */
export const UNBOUND_RETENTION_MS = 30 * 24 * 60 * 60_000;

/**
 * Retention (docs/decisions/035): bodies 7 days after sending (or after
 * giving up); the row itself (id, kind, status, the provider's id) as long
 * as its booking or the booking's tombstone exists, 30 days for a message
 * about no booking. One statement (a cold job waits for every round trip):
 * both parts see the table as it was, so a row whose body goes in this run
 * goes itself in a later one.
 */
export async function purgeOutbox(db: Executor, now: Date = new Date()): Promise<{ bodies: number; rows: number }> {
  const bodiesBefore = new Date(now.getTime() - BODY_RETENTION_MS).toISOString();
  const [counts] = rowsOf<{ bodies: number; rows: number }>(
    await db.execute(sql`
      with bodies as (
        update email_outbox set key_id = null, sealed = null
        where sealed is not null and status <> 'pending' and coalesce(sent_at, created_at) < ${bodiesBefore}::timestamptz
        returning id),
      gone as (
        delete from email_outbox o
        where o.sealed is null and (
          (o.booking_id is null and o.created_at < ${new Date(now.getTime() - UNBOUND_RETENTION_MS).toISOString()}::timestamptz)
          or (o.booking_id is not null
            and not exists (select 1 from booked_slots b where b.id = o.booking_id)
            and not exists (select 1 from cancelled_bookings x where x.id = o.booking_id)))
        returning id)
      select (select count(*) from bodies)::int as bodies, (select count(*) from gone)::int as rows`),
  );
  return counts!;
}

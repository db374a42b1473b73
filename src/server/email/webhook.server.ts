/**
 * The mail service's delivery events (docs/decisions/035-email-outbox.md):
 * Postmark posts Delivery, Bounce and SpamComplaint records, naming the
 * message by the `MessageID` it answered when the message was sent (the
 * local outbox writes the same id as `X-Message-Id`).
 *
 * - HTTP Basic credentials (POSTMARK_WEBHOOK_USER / POSTMARK_WEBHOOK_PASSWORD,
 *   set in the webhook URL the practice configures), compared in constant
 *   time; wrong or missing: 401, nothing read. Not set: 503 not-configured.
 * - Bad JSON: 400; an unknown MessageID: 404; both without effect.
 * - Delivery: `delivered`. SpamComplaint, and a Bounce that is a real
 *   non-delivery (`Inactive: true`, or Type HardBounce, BadEmailAddress,
 *   SpamComplaint, ManuallyDeactivated, Blocked): `bounced` / `complained`;
 *   a patient's message sends its SMS where it carries one
 *   (fallback.server.ts, docs/decisions/043-sms-second-channel.md), else
 *   its booking asks for a call; the practice's own marks its booking
 *   "Praxis nicht benachrichtigt" and the back office shows admins a
 *   banner (stats: practiceMailBounced).
 * - Any other Bounce (an out-of-office reply, a delay, a soft bounce, a
 *   DNS hiccup, …) is recorded on the message only (`last_error`
 *   `bounce:<Type>`, `event_at`): the message may still arrive, and an
 *   out-of-office reply means it did.
 * - Other record types (opens, clicks, subscription changes): 200, ignored.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { AppError } from '../../lib/errors';
import * as z from '../../lib/zod';
import { rowsOf } from '../bookings/shared.server';
import { isProductionEnv, notConfigured, variables } from '../env.server';
import { json, parseInput, readForeignJson } from '../http.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import type { RequestContext } from '../http.server';
import type { KeyRing } from '../appointment-contact/keys.server';
import { deliverAfterResponse } from './delivery.server';
import { emailUndelivered, type UndeliveredRow } from './fallback.server';
import type { MailAudience } from './queue.server';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Same time whatever the values: both sides hashed to equal length first. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** 401 unless the request carries the configured Basic credentials. */
export function assertWebhookCredentials(req: Request): void {
  const env = variables();
  const user = env.POSTMARK_WEBHOOK_USER ?? '';
  const password = env.POSTMARK_WEBHOOK_PASSWORD ?? '';
  if (!user || !password) {
    if (isProductionEnv(env)) throw notConfigured(['POSTMARK_WEBHOOK_USER', 'POSTMARK_WEBHOOK_PASSWORD']);
    throw new AppError('not-configured', 'The mail webhook is not configured: set POSTMARK_WEBHOOK_USER and POSTMARK_WEBHOOK_PASSWORD.');
  }
  const header = req.headers.get('authorization') ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  // Both comparisons always run, so a wrong user takes as long as a wrong password.
  const userOk = sameSecret(colon < 0 ? '' : decoded.slice(0, colon), user);
  const passwordOk = sameSecret(colon < 0 ? '' : decoded.slice(colon + 1), password);
  if (!match || colon < 0 || !userOk || !passwordOk) throw new AppError('unauthenticated', 'Wrong or missing webhook credentials.');
}

/** Only these fields are read; all are plain identifiers or flags (the rest, a bounce's content say, is never used). */
export const postmarkEventSchema = z.looseObject({
  RecordType: z.string().check(z.regex(/^[A-Za-z]{1,40}$/, 'errors.invalid')),
  MessageID: z.string().check(z.regex(/^[A-Za-z0-9._@-]{1,100}$/, 'errors.invalid')),
  /** A bounce's kind (HardBounce, AutoResponder, Transient, …). */
  Type: z.optional(z.string().check(z.regex(/^[A-Za-z]{1,40}$/, 'errors.invalid'))),
  /** Postmark deactivated the address: nothing more reaches it. */
  Inactive: z.optional(z.boolean({ error: 'errors.invalid' })),
});

/** Bounce types that mean the message did not and will not arrive (Postmark's bounce types). */
export const REAL_BOUNCE_TYPES = new Set(['HardBounce', 'BadEmailAddress', 'SpamComplaint', 'ManuallyDeactivated', 'Blocked']);

/** Whether a Bounce record is a real non-delivery; anything else (AutoResponder, Transient, SoftBounce, DnsError, …) is not. */
export function isRealBounce(event: { Type?: string; Inactive?: boolean }): boolean {
  return event.Inactive === true || (event.Type !== undefined && REAL_BOUNCE_TYPES.has(event.Type));
}

/** A bounce may carry the whole bounced message: room for it. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const STATUS_BY_RECORD: Record<string, 'delivered' | 'bounced' | 'complained'> = {
  Delivery: 'delivered',
  Bounce: 'bounced',
  SpamComplaint: 'complained',
};

/**
 * Records one event. A bounce or complaint is final (a later Delivery of
 * the same message does not undo it: staff have been asked to call); a
 * Delivery after `sent` is `delivered`.
 */
export async function recordDeliveryEvent(
  db: Database,
  event: z.infer<typeof postmarkEventSchema>,
  now: Date = new Date(),
  keys?: KeyRing | null,
): Promise<'recorded' | 'ignored'> {
  const status = STATUS_BY_RECORD[event.RecordType];
  const ring = keys === undefined ? await dataKeyRingIfAny() : keys;
  return db.transaction(async (tx) => {
    const [row] = rowsOf<UndeliveredRow & { status: string }>(
      await tx.execute(
        sql`select id, channel, status, audience, booking_id, key_id, sealed from email_outbox where channel = 'email' and provider_id = ${event.MessageID} for update`,
      ),
    );
    if (!row) throw new AppError('not-found', 'Unknown message.');
    if (!status) return 'ignored';
    const final = row.status === 'bounced' || row.status === 'complained';
    if (final && status === 'delivered') return 'ignored';
    if (status === 'bounced' && !isRealBounce(event)) {
      // A reply or a delay, not a non-delivery: noted on the message, nobody is asked to call.
      await tx.execute(sql`update email_outbox set event_at = ${now.toISOString()}::timestamptz, last_error = ${`bounce:${event.Type ?? 'unknown'}`} where id = ${row.id}::uuid`);
      return 'recorded';
    }
    // A second bounce of the same message (a complaint after a bounce) changes nothing more.
    if (final) return 'ignored';
    await tx.execute(sql`update email_outbox set status = ${status}, event_at = ${now.toISOString()}::timestamptz where id = ${row.id}::uuid`);
    if (status !== 'delivered') {
      const next = await emailUndelivered(tx, row, ring, now);
      console.warn(`email ${row.id}: ${status} (${row.audience})${next === 'sms' ? ', notice goes by SMS' : ''}`);
    }
    return 'recorded';
  });
}

/** POST /api/webhooks/postmark: credentials, then the JSON, then the event; an SMS it queued goes after the answer. */
export async function postmarkWebhook(db: Database, req: Request, ctx?: RequestContext): Promise<Response> {
  assertWebhookCredentials(req);
  const event = parseInput(postmarkEventSchema, await readForeignJson(req, WEBHOOK_BODY_LIMIT));
  const outcome = await recordDeliveryEvent(db, event);
  if (ctx && outcome === 'recorded') deliverAfterResponse(ctx);
  return json({ [outcome]: true });
}

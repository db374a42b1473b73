/**
 * The SMS provider's delivery reports (docs/decisions/043-sms-second-channel.md):
 * POST /api/webhooks/sms. seven.io signs every webhook with the account's
 * signing key (SMS_WEBHOOK_SECRET): `X-Signature` is the hex HMAC-SHA256 of
 * `X-Timestamp`, `X-Nonce`, the HTTP method, the URL it posted to and the
 * hex MD5 of the body, joined by line breaks; `X-Timestamp` is Unix seconds
 * and may be at most five minutes off (a replay later is refused).
 *
 * - Wrong or missing signature: 401; the secret not set: 503
 *   not-configured (production) or the same refusal locally. Nothing read.
 * - A body that is no JSON or no report: 400. An unknown message id: 404.
 *   Neither changes anything.
 * - `dlr` reports: DELIVERED marks the SMS `delivered`; NOTDELIVERED,
 *   REJECTED, EXPIRED and FAILED mark it `failed` and its booking asks for
 *   a call ("SMS nicht zugestellt – bitte anrufen"); any other status
 *   (ACCEPTED, BUFFERED, TRANSMITTED, UNKNOWN) is noted on the message
 *   only. A failure is final: a later DELIVERED does not undo the call.
 * - Other events (an inbound SMS, say): 200 and ignored, never stored.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { AppError } from '../../lib/errors';
import * as z from '../../lib/zod';
import { rowsOf } from '../bookings/shared.server';
import { markBookingUndelivered } from '../email/fallback.server';
import { isProductionEnv, notConfigured, readEnv, variables } from '../env.server';
import { json, parseInput, readForeignText } from '../http.server';

/** How far the signed timestamp may be from the server's clock. */
export const SIGNATURE_MAX_AGE_SECONDS = 300;
const BODY_LIMIT = 64 * 1024;

/** The signature seven.io computes for a request (also what tests sign with). */
export function smsWebhookSignature(secret: string, parts: { timestamp: string; nonce: string; method: string; url: string; body: string }): string {
  const bodyMd5 = createHash('md5').update(parts.body, 'utf8').digest('hex');
  const text = [parts.timestamp, parts.nonce, parts.method.toUpperCase(), parts.url, bodyMd5].join('\n');
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

function sameHex(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given.toLowerCase()).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The URLs the provider may have signed: the request's own, and the same path on the configured site (behind a proxy). */
function signedUrls(req: Request): string[] {
  const own = new URL(req.url);
  const site = new URL(readEnv().SITE_URL);
  return [...new Set([own.href, `${site.origin}${own.pathname}${own.search}`])];
}

/** 401 unless the request carries a valid, fresh signature over `body`. */
export function assertSmsSignature(req: Request, body: string, now: Date = new Date()): void {
  const secret = variables().SMS_WEBHOOK_SECRET ?? '';
  if (!secret) {
    if (isProductionEnv()) throw notConfigured(['SMS_WEBHOOK_SECRET']);
    throw new AppError('not-configured', 'The SMS webhook is not configured: set SMS_WEBHOOK_SECRET.');
  }
  const timestamp = req.headers.get('x-timestamp') ?? '';
  const nonce = req.headers.get('x-nonce') ?? '';
  const signature = req.headers.get('x-signature') ?? '';
  const fresh = /^\d{1,12}$/.test(timestamp) && Math.abs(now.getTime() / 1000 - Number(timestamp)) <= SIGNATURE_MAX_AGE_SECONDS;
  const shaped = /^[A-Za-z0-9]{1,64}$/.test(nonce) && /^[0-9a-fA-F]{64}$/.test(signature);
  // Every candidate is compared, so a wrong signature takes as long as a right one.
  const matches = signedUrls(req).map((url) => sameHex(signature, smsWebhookSignature(secret, { timestamp, nonce, method: req.method, url, body })));
  if (!fresh || !shaped || !matches.some(Boolean)) throw new AppError('unauthenticated', 'Wrong or missing webhook signature.');
}

/** Only the event, the message id and its status are read; the rest (an inbound text, say) never is. */
export const smsReportSchema = z.looseObject({
  webhook_event: z.string({ error: 'errors.invalid' }).check(z.regex(/^[a-z_]{1,40}$/, 'errors.invalid')),
  data: z.looseObject({
    msg_id: z.optional(
      z.pipe(
        z.pipe(z.union([z.string(), z.number()], { error: 'errors.invalid' }), z.transform(String)),
        z.string().check(z.regex(/^[A-Za-z0-9._-]{1,100}$/, 'errors.invalid')),
      ),
    ),
    status: z.optional(z.string({ error: 'errors.invalid' }).check(z.regex(/^[A-Z_]{1,30}$/, 'errors.invalid'))),
  }),
});

const DELIVERED = new Set(['DELIVERED']);
const NOT_DELIVERED = new Set(['NOTDELIVERED', 'REJECTED', 'EXPIRED', 'FAILED']);

/** Records one delivery report. */
export async function recordSmsReport(db: Database, report: z.infer<typeof smsReportSchema>, now: Date = new Date()): Promise<'recorded' | 'ignored'> {
  if (report.webhook_event !== 'dlr') return 'ignored';
  const { msg_id: id, status } = report.data;
  if (!id || !status) throw new AppError('invalid-input', 'A delivery report names its message and status.', { data: ['errors.invalid'] });
  return db.transaction(async (tx) => {
    const [row] = rowsOf<{ id: string; status: string; audience: 'patient' | 'practice' | 'staff'; booking_id: string | null }>(
      await tx.execute(sql`select id, status, audience, booking_id from email_outbox where channel = 'sms' and provider_id = ${id} for update`),
    );
    if (!row) throw new AppError('not-found', 'Unknown message.');
    if (row.status === 'failed') return 'ignored';
    const at = now.toISOString();
    if (DELIVERED.has(status)) {
      await tx.execute(sql`update email_outbox set status = 'delivered', event_at = ${at}::timestamptz where id = ${row.id}::uuid`);
    } else if (NOT_DELIVERED.has(status)) {
      await tx.execute(sql`update email_outbox set status = 'failed', event_at = ${at}::timestamptz, last_error = ${`dlr:${status}`} where id = ${row.id}::uuid`);
      if (row.booking_id) await markBookingUndelivered(tx, row.booking_id, row.audience);
      console.warn(`sms ${row.id}: not delivered (${status})`);
    } else {
      await tx.execute(sql`update email_outbox set event_at = ${at}::timestamptz, last_error = ${`dlr:${status}`} where id = ${row.id}::uuid`);
    }
    return 'recorded';
  });
}

/** POST /api/webhooks/sms: the signature over the exact body, then the JSON, then the report. */
export async function smsWebhook(db: Database, req: Request): Promise<Response> {
  const text = await readForeignText(req, BODY_LIMIT);
  assertSmsSignature(req, text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('invalid-input', 'The body is not valid JSON.', { body: ['errors.invalidJson'] });
  }
  const outcome = await recordSmsReport(db, parseInput(smsReportSchema, body));
  return json({ [outcome]: true });
}

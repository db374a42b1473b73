/**
 * The same request twice is one request
 * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md): a
 * double click, a reload that posts the form again, a second tab. Each
 * request carries a keyed hash (HMAC with the server key) of its kind, its
 * email as one recipient and every detail the patient entered, never those
 * in clear; a unique index on it decides, inside the request's own
 * transaction, so two identical posts at the same instant still make one
 * row. The key counts for 10 minutes from the first request and while that
 * request is open; after that the same details are a new request, and the
 * every-minute job forgets the key (an HMAC of health details is kept no
 * longer than it serves).
 */
import { and, eq, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { patientRequests } from '../../../db/schema';
import type { PatientRequest } from '../../lib/request-schema';
import { canonicalEmail } from '../rate-limit.server';
import { keyedHash } from '../server-key.server';
import { detailsOf } from './seal.server';

/** How long the same request again is the first one. */
export const DUPLICATE_WINDOW_MINUTES = 10;

const windowStart = (now: Date) => new Date(now.getTime() - DUPLICATE_WINDOW_MINUTES * 60_000);

/** Code-point order: the same on every instance, whatever its locale. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** JSON with every object's keys in order, so equal details give equal text whatever built them. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => byCodePoint(a, b))) : v,
  );
}

/** The request's duplicate key: kind, the email as one recipient (trimmed, lower case) and the details, under the server key. */
export function duplicateKeyOf(request: PatientRequest, secret: string): string {
  const { token: _token, ...details } = detailsOf(request, '');
  return keyedHash('request-duplicate', stableJson({ ...details, kind: request.kind, email: canonicalEmail(request.email) }), secret);
}

/**
 * Clears `key` from an earlier request it no longer stands for (older than
 * the window, or closed), so the insert that follows may take it.
 */
export async function releaseStaleKey(tx: Executor, key: string, now: Date): Promise<void> {
  await tx
    .update(patientRequests)
    .set({ duplicateKey: null })
    .where(and(eq(patientRequests.duplicateKey, key), or(lte(patientRequests.createdAt, windowStart(now)), isNotNull(patientRequests.closedAt))));
}

/** The partial unique index the insert's ON CONFLICT names (as the migration wrote it). */
export const duplicateKeyIndexPredicate = sql`duplicate_key is not null`;

/** The reference of the request that holds `key` (the first of two identical posts). */
export async function referenceHolding(tx: Executor, key: string): Promise<string | null> {
  const [row] = await tx.select({ reference: patientRequests.reference }).from(patientRequests).where(eq(patientRequests.duplicateKey, key));
  return row?.reference ?? null;
}

/**
 * The job's part: the statement that forgets every key past its window or
 * of a closed request (of the rows `among` admits), returning their ids
 * (requests/job.server.ts runs it with the requests' purge).
 */
export function forgetDuplicateKeys(now: Date, among: SQL): SQL {
  return sql`
    update patient_requests set duplicate_key = null
    where duplicate_key is not null and (created_at <= ${windowStart(now).toISOString()}::timestamptz or closed_at is not null) and ${among}
    returning id`;
}

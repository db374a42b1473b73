/**
 * A patient's request arrives (docs/decisions/036-patient-requests.md):
 * POST /api/requests. In one transaction: the abuse limits, the row with
 * its sealed details, the patient's receipt and, when due, the practice's
 * notice in the outbox; the emails go after the answer.
 *
 * - A filled honeypot is a bot: it gets an answer like a person's and
 *   nothing is stored or sent.
 * - A kind the practice has switched off: 409 request-kind-closed.
 * - Limits (HMACs only, src/server/rate-limit.server.ts): 5 requests per
 *   client address per hour, as the contact form; 3 per email address per
 *   day. 429 with Retry-After; nothing stored.
 * - The same request again within 10 minutes (same kind, email and
 *   details: a double click, a reload, a second tab) is the first one: its
 *   reference, no second row, no second receipt, no limit used
 *   (duplicates.server.ts).
 */
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../../../db/errors';
import type { Database } from '../../../db/client';
import { patientRequests } from '../../../db/schema';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../../../db/booking-reference';
import { AppError } from '../../lib/errors';
import type { PatientRequest } from '../../lib/request-schema';
import { requestText } from '../../lib/request-texts';
import type { KeyRing } from '../appointment-contact/keys.server';
import { hashToken, newCancellationToken } from '../bookings/shared.server';
import { requestReceiptEmail } from '../email/messages/requests.server';
import { enqueueEmails, type QueuedEmail } from '../email/queue.server';
import { variables } from '../env.server';
import { canonicalEmail, clientHit, rateLimitKey, takeRateLimit, type RateLimit } from '../rate-limit.server';
import { assertSmsNumber } from '../sms/numbers.server';
import { serverHashKey } from '../server-key.server';
import { duplicateKeyIndexPredicate, duplicateKeyOf, referenceHolding, releaseStaleKey } from './duplicates.server';
import { claimPracticeNotice } from './notice.server';
import { detailsOf, sealDetails } from './seal.server';
import { isOpen, readRequestSettings } from './settings.server';

/** As the contact form: 5 per client address per hour. */
export const REQUESTS_PER_CLIENT: RateLimit = { bucket: 'request-client', max: 5, windowSeconds: 60 * 60 };
/** 3 per email address per day (a sliding 24 hours). */
export const REQUESTS_PER_EMAIL: RateLimit = { bucket: 'request-email', max: 3, windowSeconds: 24 * 60 * 60 };

export interface SubmitOptions {
  keys: KeyRing;
  clientAddress: string;
  siteUrl: string;
  practiceEmail: string;
  isProduction: boolean;
  now?: Date;
}

export interface SubmittedRequest {
  reference: string;
  /** The outbox ids of the emails this request queued (sent after the answer). */
  emailIds: string[];
  /** The same request had arrived within the window: this is its reference, and nothing new was stored or queued. */
  repeated: boolean;
}

/**
 * The per-address limit. Outside production REQUESTS_PER_CLIENT_MAX may
 * raise it (the browser tests send every request from 127.0.0.1);
 * production ignores it.
 */
export function requestsPerClient(isProduction: boolean): RateLimit {
  const raised = Number(variables().REQUESTS_PER_CLIENT_MAX);
  if (!isProduction && Number.isInteger(raised) && raised > 0) return { ...REQUESTS_PER_CLIENT, max: raised };
  return REQUESTS_PER_CLIENT;
}

/** A reference of the real form for a bot's answer (nothing is stored under it). */
function decoyReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(REFERENCE_LENGTH));
  return Array.from(bytes, (b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join('');
}

export async function submitRequest(db: Database, request: PatientRequest, options: SubmitOptions): Promise<SubmittedRequest> {
  if (request.website && request.website.trim() !== '') return { reference: decoyReference(), emailIds: [], repeated: false };
  const now = options.now ?? new Date();
  const settings = await readRequestSettings(db);
  if (!isOpen(settings, request.kind)) {
    throw new AppError('request-kind-closed', requestText('en', `requests.closed.${request.kind}`), undefined, { extra: { kind: request.kind } });
  }

  // SMS for the status (when its email does not arrive) only to a mobile number: 400 naming `phone` otherwise.
  if (request.sms) {
    if (!request.phone) throw new AppError('invalid-input', 'SMS needs a phone number.', { phone: ['requests.errors.phoneRequired'] });
    await assertSmsNumber(request.phone, 'requests');
  }
  const secret = serverHashKey();
  const perClient = requestsPerClient(options.isProduction);
  const hits = [
    clientHit(perClient, options.clientAddress, secret),
    { limit: REQUESTS_PER_EMAIL, key: rateLimitKey(REQUESTS_PER_EMAIL, canonicalEmail(request.email), secret) },
  ];
  const token = newCancellationToken();
  const id = randomUUID();
  const sealed = sealDetails(detailsOf(request, token), id, options.keys);
  const duplicateKey = duplicateKeyOf(request, secret);

  return db.transaction(async (tx) => {
    await releaseStaleKey(tx, duplicateKey, now);
    let reference = '';
    // The database draws the reference; a draw that is taken (1 in 887 million per stored request) draws again.
    for (let attempt = 0; !reference; attempt++) {
      try {
        // The duplicate key's unique index decides: a second identical post waits here for the first one's
        // transaction and, once it has committed, inserts nothing.
        const [row] = await tx.transaction((sp) =>
          sp
            .insert(patientRequests)
            .values({ id, kind: request.kind, keyId: sealed.keyId, sealed: sealed.sealed, tokenHash: hashToken(token), duplicateKey, statusAt: now, createdAt: now })
            .onConflictDoNothing({ target: patientRequests.duplicateKey, where: duplicateKeyIndexPredicate })
            .returning({ reference: patientRequests.reference }),
        );
        if (!row) {
          const first = await referenceHolding(tx, duplicateKey);
          // The holder went between the two statements (closed and its key forgotten): a new request after all.
          if (!first && attempt < 5) continue;
          if (!first) throw new Error('the request holding the duplicate key could not be read');
          return { reference: first, emailIds: [], repeated: true };
        }
        reference = row.reference;
      } catch (error) {
        if (attempt < 5 && isUniqueViolation(error, 'patient_requests_reference_idx')) continue;
        throw error;
      }
    }
    // Only a new request counts against the limits (a rate-limited one rolls back with its row).
    await takeRateLimit(tx, hits, now, 'Too many requests. Please try again later or call us.');
    const notice = request.language === 'en' ? settings.notice_en : settings.notice_de;
    const emails: QueuedEmail[] = [
      {
        message: requestReceiptEmail({ ...request, token }, { kind: request.kind, reference, notice }, options.siteUrl),
        kind: 'request-receipt',
        audience: 'patient',
      },
    ];
    const practiceNotice = await claimPracticeNotice(tx, { practiceEmail: options.practiceEmail, siteUrl: options.siteUrl, now });
    if (practiceNotice) emails.push(practiceNotice);
    return { reference, emailIds: await enqueueEmails(tx, emails, options.keys, now), repeated: false };
  });
}

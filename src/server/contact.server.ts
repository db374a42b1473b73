/**
 * Sending a contact message: honeypot, a
 * per-address rate limit kept in the database, then one email to the
 * practice through the email port. Nothing of the message is stored or
 * logged; the rate limit keeps only an HMAC of the client address.
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contactAttempts } from '../../db/schema';
import { buildContactEmail } from './email/messages/contact.server';
import { CONTACT_RATE_LIMIT, type ContactMessage } from '../lib/contact-message';
import { AppError } from '../lib/errors';
import type { EmailSender } from './email/port.server';
import { clientKey } from './client-address.server';

export type ContactOutcome = { status: 'sent' } | { status: 'ignored' } | { status: 'email-failed' };

/**
 * Keyed hash of the canonical client address: a plain SHA-256 of an IPv4
 * address is reversed by trying all 2^32 of them, an HMAC with a server
 * secret is not.
 */
export function contactClientKey(ip: string, secret: string): string {
  return clientKey('contact-rate-limit', ip, secret);
}

/**
 * Counts this message against the address's limit, or throws 429. Runs in
 * one transaction under an advisory lock on the key, so parallel requests
 * from one address cannot slip past the limit together.
 */
export async function takeContactAllowance(db: Database, clientKey: string, now = new Date()): Promise<void> {
  const windowStart = new Date(now.getTime() - CONTACT_RATE_LIMIT.windowMinutes * 60_000);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`contact:${clientKey}`}))`);
    // Old rows serve no purpose; removing them keeps the table small.
    await tx.delete(contactAttempts).where(lt(contactAttempts.attemptedAt, windowStart));
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int`, oldestEpoch: sql<number | null>`extract(epoch from min(${contactAttempts.attemptedAt}))::float8` })
      .from(contactAttempts)
      .where(and(eq(contactAttempts.clientKey, clientKey), gt(contactAttempts.attemptedAt, windowStart)));
    if ((row?.count ?? 0) >= CONTACT_RATE_LIMIT.max) {
      // The oldest message in the window leaving it frees the next one.
      const oldest = row?.oldestEpoch != null ? Number(row.oldestEpoch) * 1000 : now.getTime();
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + CONTACT_RATE_LIMIT.windowMinutes * 60_000 - now.getTime()) / 1000));
      throw new AppError('rate-limited', 'Too many messages from this address. Please try again later or call us.', undefined, { retryAfterSeconds });
    }
    await tx.insert(contactAttempts).values({ clientKey, attemptedAt: now });
  });
}

export async function sendContactMessage(
  deps: { db: Database; email: EmailSender; practiceEmail: string; secret: string },
  message: ContactMessage,
  ip: string,
): Promise<ContactOutcome> {
  // A filled honeypot is a bot: it gets the same answer as a person, and nothing is sent.
  if (message.website && message.website.trim() !== '') return { status: 'ignored' };
  await takeContactAllowance(deps.db, contactClientKey(ip, deps.secret));
  try {
    await deps.email.send(buildContactEmail(message, deps.practiceEmail));
    return { status: 'sent' };
  } catch (error) {
    // The error's name only: provider messages can quote addresses.
    console.warn(`contact email failed: ${error instanceof Error ? error.name : 'unknown error'}`);
    return { status: 'email-failed' };
  }
}

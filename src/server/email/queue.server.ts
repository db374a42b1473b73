/**
 * Queuing an email (docs/decisions/035-email-outbox.md): every email a
 * change promises is written to `email_outbox`, sealed under the
 * appointment-contact key ring with the row's id as associated data, by the
 * change's own transaction (or, for a booking, by its own statement:
 * `queuedEmailsCte`). So the change and its emails commit together or not
 * at all, and nothing waits for the mail service: delivery.server.ts sends
 * them right after the answer and from the every-minute job.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { emailOutbox } from '../../../db/schema';
import { dataKeyRing, type KeyRing } from '../appointment-contact/keys.server';
import { openJson, sealJson, type Sealed } from '../sealing.server';
import type { EmailMessage } from './port.server';
import type { SmsPlan } from '../sms/queue.server';

/** Who reads a message: a patient, the practice's mailbox, or a staff account. */
export type MailAudience = 'patient' | 'practice' | 'staff';

export interface QueuedEmail {
  message: EmailMessage;
  /** What it is, kebab-case (`booking-confirmation`, `practice-cancelled`, …): shown to staff, never patient data. */
  kind: string;
  audience: MailAudience;
  /** The booking it is about: its delivery shows on the booking, and a bounce asks staff to call. */
  bookingId?: string | null;
  /**
   * The same notice as an SMS, sent when this (patient's) email bounces or
   * finally fails, where the patient agreed to SMS at a mobile number
   * (docs/decisions/043-sms-second-channel.md); sealed with the email.
   */
  sms?: SmsPlan | null;
}

/** A message sealed for its row, ready to be inserted. */
export interface PreparedEmail extends Sealed {
  id: string;
  kind: string;
  audience: MailAudience;
  bookingId: string | null;
}

/** The sealed form of a message: attachments as base64, so bytes survive JSON. */
interface SealedMessage extends Omit<EmailMessage, 'attachments'> {
  attachments?: Array<{ filename: string; contentType: string; base64: string; text: boolean }>;
  /** The SMS to send when the email does not arrive. */
  sms?: SmsPlan;
}

const associatedData = (id: string) => `email:${id}`;

export function prepareEmail(email: QueuedEmail, keys: KeyRing, id: string = randomUUID()): PreparedEmail {
  const { attachments, ...rest } = email.message;
  const plain: SealedMessage = {
    ...rest,
    ...(attachments?.length
      ? {
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            base64: Buffer.from(a.content).toString('base64'),
            text: typeof a.content === 'string',
          })),
        }
      : {}),
    ...(email.sms ? { sms: email.sms } : {}),
  };
  return { id, kind: email.kind, audience: email.audience, bookingId: email.bookingId ?? null, ...sealJson(plain, associatedData(id), keys) };
}

/** The SMS a queued email carries for when it does not arrive, or null; SealError when no configured key opens it. */
export function openFallbackSms(row: { id: string } & Sealed, keys: KeyRing): SmsPlan | null {
  return openJson<SealedMessage>(row, associatedData(row.id), keys).sms ?? null;
}

/** Opens a queued message; SealError when no configured key opens it. */
export function openQueued(row: { id: string } & Sealed, keys: KeyRing): EmailMessage {
  const { attachments, sms: _sms, ...rest } = openJson<SealedMessage>(row, associatedData(row.id), keys);
  return {
    ...rest,
    ...(attachments
      ? {
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.text ? Buffer.from(a.base64, 'base64').toString('utf8') : new Uint8Array(Buffer.from(a.base64, 'base64')),
          })),
        }
      : {}),
  };
}

// Times come from the application's clock, like every other "now" of a change (the delivery compares them with it).
const columns = (e: PreparedEmail, now: Date) => ({
  id: e.id,
  kind: e.kind,
  audience: e.audience,
  bookingId: e.bookingId,
  keyId: e.keyId,
  sealed: e.sealed,
  createdAt: now,
  nextAttemptAt: now,
});

/**
 * Writes the messages to the outbox through `db` (the change's transaction)
 * and answers their ids. Without `keys` this process's key ring is used
 * (503 not-configured in production without DATA_ENCRYPTION_KEY).
 */
export async function enqueueEmails(db: Executor, emails: QueuedEmail[], keys?: KeyRing, now: Date = new Date()): Promise<string[]> {
  if (emails.length === 0) return [];
  const ring = keys ?? (await dataKeyRing());
  const prepared = emails.map((e) => prepareEmail(e, ring));
  await db.insert(emailOutbox).values(prepared.map((e) => columns(e, now)));
  return prepared.map((e) => e.id);
}

/**
 * The same rows as a CTE of a booking's own statement (bookings stay at two
 * round trips): inserted only when the statement's `from` CTE (the booked
 * row) yields a row.
 */
export function queuedEmailsCte(prepared: PreparedEmail[], from: SQL, now: Date = new Date()): SQL {
  const rows = prepared.map(
    (e) => sql`(${e.id}::uuid, ${e.kind}, ${e.audience}, ${e.bookingId}::uuid, ${e.keyId}, ${e.sealed})`,
  );
  const at = now.toISOString();
  return sql`insert into email_outbox (id, kind, audience, booking_id, key_id, sealed, created_at, next_attempt_at)
      select v.id, v.kind, v.audience, v.booking_id, v.key_id, v.sealed, ${at}::timestamptz, ${at}::timestamptz
      from (values ${sql.join(rows, sql`, `)}) as v(id, kind, audience, booking_id, key_id, sealed)
      where exists (select 1 from ${from})`;
}

/**
 * A booking that moves or is cancelled withdraws its reminder still
 * waiting in the outbox: it names a time that no longer holds. One already
 * handed to the mail service went while it was right.
 */
export async function withdrawQueuedReminder(db: Executor, bookingId: string): Promise<void> {
  await db.execute(sql`delete from email_outbox where booking_id = ${bookingId}::uuid and kind = 'reminder' and status = 'pending'`);
}

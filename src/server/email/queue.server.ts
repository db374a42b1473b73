/**
 * STAND-IN until the durable outbox lands on main (this branch takes main's
 * file on merge): the same exports and signatures as the outbox's queue, so
 * the request use cases are written against it. Here a queued message is
 * kept in this process's memory and sent by delivery.server.ts after the
 * answer or by the scheduled job; nothing survives a restart.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../../db/client';
import type { KeyRing } from '../appointment-contact/keys.server';
import type { EmailMessage } from './port.server';

/** Who reads a message: a patient, the practice's mailbox, or a staff account. */
export type MailAudience = 'patient' | 'practice' | 'staff';

export interface QueuedEmail {
  message: EmailMessage;
  /** What it is, kebab-case: never patient data. */
  kind: string;
  audience: MailAudience;
  bookingId?: string | null;
}

/** The messages queued and not yet sent, by id (the stand-in's whole outbox). */
export const pendingEmails = new Map<string, QueuedEmail>();

export async function enqueueEmails(_db: Executor, emails: QueuedEmail[], _keys?: KeyRing): Promise<string[]> {
  return emails.map((email) => {
    const id = randomUUID();
    pendingEmails.set(id, email);
    return id;
  });
}

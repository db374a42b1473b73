/**
 * The email port: one interface, two adapters. Postmark when
 * POSTMARK_SERVER_TOKEN is set, else a local outbox folder
 * ($DATA_DIR/outbox, one .eml per message). Nothing else changes.
 */
import { notConfigured, readEnv } from '../env.server';
import { createOutboxSender } from './outbox.server';
import { createPostmarkSender } from './postmark.server';

export interface EmailAttachment {
  filename: string;
  contentType: string;
  /** Raw content (UTF-8 text or bytes). */
  content: string | Uint8Array;
}

export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  replyTo?: string;
  attachments?: EmailAttachment[];
}

export interface SentEmail {
  /** Provider message id or outbox file name. */
  id: string;
}

export interface EmailSender {
  readonly kind: 'postmark' | 'outbox';
  send(message: EmailMessage): Promise<SentEmail>;
}

export class EmailHeaderError extends Error {
  constructor(field: string) {
    super(`Email header ${field} must be a single line`);
    this.name = 'EmailHeaderError';
  }
}

/** Header fields reject line breaks (DESIGN.md): no header injection. */
export function assertSafeHeaders(message: EmailMessage, from: string): void {
  const fields = { from, to: message.to, subject: message.subject, replyTo: message.replyTo ?? '' };
  for (const [field, value] of Object.entries(fields)) {
    if (/[\r\n\u2028\u2029]/.test(value)) throw new EmailHeaderError(field);
  }
  for (const a of message.attachments ?? []) {
    if (/[\r\n"\\]/.test(a.filename) || /[\r\n]/.test(a.contentType)) throw new EmailHeaderError('attachment');
  }
}

export function createEmailSender(env = readEnv()): EmailSender {
  if (env.POSTMARK_SERVER_TOKEN) {
    return createPostmarkSender({ token: env.POSTMARK_SERVER_TOKEN, from: env.MAIL_FROM });
  }
  // The outbox is a local folder: never in production, where it would silently lose mail.
  if (env.isProduction) throw notConfigured(['POSTMARK_SERVER_TOKEN']);
  return createOutboxSender({ from: env.MAIL_FROM });
}

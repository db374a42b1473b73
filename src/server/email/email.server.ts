/**
 * The email port: one interface, two adapters. Postmark when
 * POSTMARK_SERVER_TOKEN is set, else a local outbox folder
 * ($DATA_DIR/outbox, one .eml per message). Nothing else changes.
 */
import { encodeWord } from 'nodemailer/lib/mime-funcs';
import { notConfigured, readEnv } from '../env.server';
import { CONTROL_OR_SEPARATOR, EmailHeaderError, parseMailbox, type Mailbox } from './mailbox.server';
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
  /**
   * The sender's display name for this message (e.g. the practice's English
   * name for an English booking); the address stays MAIL_FROM's.
   */
  fromName?: string;
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

/** A mailbox as one header value: the display name quoted, or RFC 2047-encoded when not ASCII; the address as is. */
export function formatMailbox({ name, address }: Mailbox): string {
  if (!name) return address;
  if (/^[\x20-\x7e]*$/.test(name)) return `"${name.replace(/(["\\])/g, '\\$1')}" <${address}>`;
  return `${encodeWord(name, 'Q', 52)} <${address}>`;
}

/** The checked header fields of a message: no line breaks anywhere, each address field exactly one valid address. */
export interface CheckedHeaders {
  from: Mailbox;
  to: Mailbox;
  replyTo?: Mailbox;
}

const withName = (mailbox: Mailbox, name: string | undefined): Mailbox =>
  name === undefined ? mailbox : { name: name.normalize('NFC'), address: mailbox.address };

/** Header fields reject line breaks (DESIGN.md): no header injection, no smuggled second address. */
export function assertSafeHeaders(message: EmailMessage, from: string): CheckedHeaders {
  if (CONTROL_OR_SEPARATOR.test(message.subject)) throw new EmailHeaderError('subject');
  if (message.fromName !== undefined && CONTROL_OR_SEPARATOR.test(message.fromName)) throw new EmailHeaderError('fromName');
  for (const a of message.attachments ?? []) {
    if (/[\r\n"\\]/.test(a.filename) || /[\r\n]/.test(a.contentType)) throw new EmailHeaderError('attachment');
  }
  return {
    from: withName(parseMailbox(from, 'from'), message.fromName),
    to: parseMailbox(message.to, 'to'),
    ...(message.replyTo ? { replyTo: parseMailbox(message.replyTo, 'replyTo') } : {}),
  };
}

export function createEmailSender(env = readEnv()): EmailSender {
  if (env.POSTMARK_SERVER_TOKEN) {
    return createPostmarkSender({ token: env.POSTMARK_SERVER_TOKEN, from: env.MAIL_FROM });
  }
  // The outbox is a local folder: never in production, where it would silently lose mail.
  if (env.isProduction) throw notConfigured(['POSTMARK_SERVER_TOKEN']);
  return createOutboxSender({ from: env.MAIL_FROM });
}

/**
 * One mailbox – `Name <address>` or a bare address – as every address field
 * of an email must be (docs/architecture.md, "Origin rule, rate limits, bad input"), and as MAIL_FROM and
 * PRACTICE_EMAIL must be (env.server.ts checks them with the same parser
 * the senders use, so a value that passes the check can be sent to), and
 * the header check both adapters share.
 */
import addressparser from 'nodemailer/lib/addressparser';
import { toAsciiEmail } from '../../lib/text-input';
import type { EmailMessage } from './port.server';

export class EmailHeaderError extends Error {
  constructor(field: string) {
    super(`Email header ${field} must be one line (an address field: one valid address)`);
    this.name = 'EmailHeaderError';
  }
}

/** A parsed address field: an optional display name and one ASCII address. */
export interface Mailbox {
  name: string;
  address: string;
}

export const CONTROL_OR_SEPARATOR = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Parses `Name <address>` or a bare address (nodemailer's address parser)
 * into exactly one mailbox whose address is one ASCII address (an
 * internationalised domain as punycode); anything else is refused.
 * `localhost` is allowed as the domain of the local defaults.
 */
export function parseMailbox(value: string, field: string): Mailbox {
  if (CONTROL_OR_SEPARATOR.test(value)) throw new EmailHeaderError(field);
  const parsed = addressparser(value, { flatten: true });
  if (parsed.length !== 1) throw new EmailHeaderError(field);
  const { name, address } = parsed[0]!;
  const ascii = toAsciiEmail(address) ?? (/^[A-Za-z0-9._+-]+@localhost$/.test(address) ? address : null);
  if (!ascii) throw new EmailHeaderError(field);
  return { name: name.normalize('NFC'), address: ascii };
}


/** The checked header fields of a message: no line breaks anywhere, each address field exactly one valid address. */
export interface CheckedHeaders {
  from: Mailbox;
  to: Mailbox;
  replyTo?: Mailbox;
}

const withName = (mailbox: Mailbox, name: string | undefined): Mailbox =>
  name === undefined ? mailbox : { name: name.normalize('NFC'), address: mailbox.address };

/** Header fields reject line breaks: no header injection, no smuggled second address. */
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

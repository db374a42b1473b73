/**
 * The email port: what a message is and what sends it. The adapters
 * (postmark.server.ts, outbox.server.ts) implement `EmailSender`; the
 * factory (email.server.ts) picks one; the builders in messages/ make
 * `EmailMessage`s.
 */

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
  /** The mail service's message id (Postmark's MessageID; the local outbox's X-Message-Id). */
  id: string;
}

export interface EmailSender {
  readonly kind: 'postmark' | 'outbox';
  send(message: EmailMessage): Promise<SentEmail>;
}

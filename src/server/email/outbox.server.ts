/**
 * The local outbox: each message becomes an RFC 5322 .eml file that any
 * mail client opens. One log line names the file, never the recipient.
 *
 * Each message carries the id it was sent under in an `X-Message-Id`
 * header: the id the mail service's webhook names (`MessageID`), so the
 * whole delivery path (docs/decisions/035) works without a mail account.
 *
 * Recipients under the reserved `.invalid` top-level domain (RFC 2606) can
 * never be delivered, so the outbox refuses them as a real server would;
 * tests use that to provoke email failures through the real port.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dataDir } from '../env.server';
import { assertSafeHeaders } from './mailbox.server';
import type { EmailMessage, EmailSender } from './port.server';

export function outboxDir(): string {
  return path.join(dataDir(), 'outbox');
}

export class UndeliverableError extends Error {
  constructor() {
    super('Recipient domain does not accept mail');
    this.name = 'UndeliverableError';
  }
}

export function createOutboxSender({ from, dir = outboxDir() }: { from: string; dir?: string }): EmailSender {
  return {
    kind: 'outbox',
    async send(message) {
      const messageId = randomUUID();
      const eml = await formatEml(message, from, messageId);
      if (/\.invalid$/i.test(assertSafeHeaders(message, from).to.address)) throw new UndeliverableError();
      await mkdir(dir, { recursive: true });
      const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.slice(0, 8)}.eml`;
      await writeFile(path.join(dir, file), eml, { mode: 0o600 });
      console.info(`email written to outbox: ${file}`);
      return { id: messageId };
    },
  };
}

/**
 * The message as RFC 5322 text, built by nodemailer's MailComposer: address
 * fields as proper mailboxes (display names encoded, addresses plain),
 * every header encoded and folded, bodies and attachments MIME-encoded.
 */
export async function formatEml(message: EmailMessage, from: string, messageId: string = randomUUID()): Promise<Buffer> {
  const headers = assertSafeHeaders(message, from);
  // Loaded here: nodemailer's MIME tree imports Node's HTTP, HTTPS, zlib and
  // net modules at its top, which would cost every cold function milliseconds.
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  const composer = new MailComposer({
    from: headers.from,
    to: headers.to,
    ...(headers.replyTo ? { replyTo: headers.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
    date: new Date(),
    messageId: `<${messageId}@outbox.local>`,
    headers: { 'X-Message-Id': messageId },
    attachments: (message.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : Buffer.from(a.content),
    })),
    // Nothing from the local machine (host name, paths) goes into the message.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

/**
 * The local outbox: each message becomes an RFC 5322 .eml file that any
 * mail client opens. One log line names the file, never the recipient.
 *
 * Recipients under the reserved `.invalid` top-level domain (RFC 2606) can
 * never be delivered, so the outbox refuses them as a real server would;
 * tests use that to provoke email failures through the real port.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dataDir } from '../../../db/client';
import { assertSafeHeaders, type EmailMessage, type EmailSender } from './email.server';

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
      assertSafeHeaders(message, from);
      if (/\.invalid>?$/i.test(message.to.trim())) throw new UndeliverableError();
      await mkdir(dir, { recursive: true });
      const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      await writeFile(path.join(dir, id), formatEml(message, from), { mode: 0o600 });
      console.info(`email written to outbox: ${id}`);
      return { id };
    },
  };
}

function encodeHeader(value: string): string {
  // RFC 2047 encoded-word for anything beyond printable ASCII.
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function base64Lines(content: string | Uint8Array): string {
  const b64 = Buffer.from(content).toString('base64');
  return b64.replace(/.{1,76}/g, '$&\r\n');
}

export function formatEml(message: EmailMessage, from: string): string {
  const mixed = `mixed-${randomUUID()}`;
  const alt = `alt-${randomUUID()}`;
  const lines = [
    `From: ${encodeHeader(from)}`,
    `To: ${message.to}`,
    ...(message.replyTo ? [`Reply-To: ${message.replyTo}`] : []),
    `Subject: ${encodeHeader(message.subject)}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@outbox.local>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
    '',
    `--${mixed}`,
    `Content-Type: multipart/alternative; boundary="${alt}"`,
    '',
    `--${alt}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(message.text),
    `--${alt}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(message.html),
    `--${alt}--`,
  ];
  for (const a of message.attachments ?? []) {
    lines.push(
      `--${mixed}`,
      `Content-Type: ${a.contentType}; name="${a.filename}"`,
      `Content-Disposition: attachment; filename="${a.filename}"`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(a.content),
    );
  }
  lines.push(`--${mixed}--`, '');
  return lines.join('\r\n');
}

/** The Postmark adapter of the email port. */
import { ServerClient } from 'postmark';
import { encodeWord } from 'nodemailer/lib/mime-funcs';
import { assertSafeHeaders, type Mailbox } from './mailbox.server';
import type { EmailSender } from './port.server';

/**
 * A mailbox as one header value: the display name quoted, or RFC 2047-encoded
 * when not ASCII; the address as is. Here, with the adapter that alone needs
 * it, so nodemailer's MIME tables load only with the adapter.
 */
export function formatMailbox({ name, address }: Mailbox): string {
  if (!name) return address;
  if (/^[\x20-\x7e]*$/.test(name)) return `"${name.replace(/(["\\])/g, '\\$1')}" <${address}>`;
  return `${encodeWord(name, 'Q', 52)} <${address}>`;
}

export interface PostmarkOptions {
  token: string;
  from: string;
  /** Injected in tests; Node's fetch otherwise. */
  fetch?: typeof fetch;
}

export function createPostmarkSender({ token, from, fetch: fetchImpl }: PostmarkOptions): EmailSender {
  const client = new ServerClient(token, fetchImpl ? { fetch: fetchImpl as never, timeout: 10 } : { timeout: 10 });
  return {
    kind: 'postmark',
    async send(message) {
      // Postmark takes address fields as strings: each one mailbox, formatted from the parsed, checked address.
      const headers = assertSafeHeaders(message, from);
      const response = await client.sendEmail({
        From: formatMailbox(headers.from),
        To: formatMailbox(headers.to),
        ReplyTo: headers.replyTo ? formatMailbox(headers.replyTo) : undefined,
        Subject: message.subject,
        HtmlBody: message.html,
        TextBody: message.text,
        MessageStream: 'outbound',
        Attachments: (message.attachments ?? []).map((a) => ({
          Name: a.filename,
          ContentType: a.contentType,
          Content: Buffer.from(a.content).toString('base64'),
          ContentID: null,
        })),
      });
      return { id: response.MessageID };
    },
  };
}

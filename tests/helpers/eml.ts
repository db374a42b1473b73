/**
 * Reads the .eml files the outbox writes with a real mail parser
 * (mailparser), for tests. Address headers come back as the plain
 * addresses, with the parsed mailboxes beside them.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { settled } from './http';

export interface ParsedEml {
  /** Lower-case header name → value; address fields (from, to, reply-to) as their addresses only. */
  headers: Record<string, string>;
  /** The parsed mailboxes of each address field. */
  addresses: Record<'from' | 'to' | 'reply-to', Array<{ name: string; address: string }>>;
  subject: string;
  text: string;
  html: string;
  attachments: Array<{ filename: string; contentType: string; content: string }>;
  /** The raw message, for checks on its encoding. */
  raw: string;
}

function mailboxes(value: AddressObject | AddressObject[] | undefined): Array<{ name: string; address: string }> {
  return [value ?? []].flat().flatMap((o) => o.value.map((a) => ({ name: a.name, address: a.address ?? '' })));
}

export async function parseEml(raw: string | Buffer): Promise<ParsedEml> {
  const mail = await simpleParser(raw, { skipTextToHtml: true, skipTextLinks: true });
  const addresses = { from: mailboxes(mail.from), to: mailboxes(mail.to), 'reply-to': mailboxes(mail.replyTo) };
  const headers: Record<string, string> = {};
  for (const line of mail.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim();
  for (const [key, list] of Object.entries(addresses)) if (list.length) headers[key] = list.map((a) => a.address).join(', ');
  return {
    headers,
    addresses,
    subject: mail.subject ?? '',
    text: (mail.text ?? '').replace(/\n$/, ''),
    html: typeof mail.html === 'string' ? mail.html : '',
    attachments: mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content.toString('utf8') })),
    raw: raw.toString(),
  };
}

/**
 * Every message in an outbox folder, oldest first: once the work handlers
 * left running after their answers (the email outbox's delivery,
 * docs/decisions/035) has finished, as a reader would see the folder a
 * moment later.
 */
export async function readOutbox(dir: string, options: { waitForWork?: boolean } = {}): Promise<ParsedEml[]> {
  // `waitForWork: false`: the folder as it is now, while that work is held up on purpose.
  if (options.waitForWork !== false) await settled();
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(files.map(async (f) => parseEml(await readFile(path.join(dir, f)))));
}

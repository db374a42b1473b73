/** Reads the .eml files the outbox writes (multipart, base64 parts), for tests. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface ParsedEml {
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  attachments: Array<{ filename: string; contentType: string; content: string }>;
}

function decodeWords(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([^?]*)\?=/g, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
}

function splitPart(raw: string): { headers: Record<string, string>; body: string } {
  const index = raw.indexOf('\r\n\r\n');
  const head = index === -1 ? raw : raw.slice(0, index);
  const body = index === -1 ? '' : raw.slice(index + 4);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function parts(body: string, contentType: string): string[] {
  const boundary = /boundary="([^"]+)"/.exec(contentType)?.[1];
  if (!boundary) return [];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((p) => p.replace(/^\r\n/, ''));
}

const decode = (body: string) => Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');

export function parseEml(raw: string): ParsedEml {
  const top = splitPart(raw);
  const result: ParsedEml = { headers: top.headers, subject: decodeWords(top.headers.subject ?? ''), text: '', html: '', attachments: [] };
  for (const part of parts(top.body, top.headers['content-type'] ?? '')) {
    const p = splitPart(part);
    const type = p.headers['content-type'] ?? '';
    if (type.startsWith('multipart/alternative')) {
      for (const alt of parts(p.body, type)) {
        const a = splitPart(alt);
        if (a.headers['content-type']?.startsWith('text/plain')) result.text = decode(a.body);
        if (a.headers['content-type']?.startsWith('text/html')) result.html = decode(a.body);
      }
    } else {
      const filename = /filename="([^"]+)"/.exec(p.headers['content-disposition'] ?? '')?.[1] ?? '';
      result.attachments.push({ filename, contentType: type.replace(/; name="[^"]*"$/, ''), content: decode(p.body) });
    }
  }
  return result;
}

/** Every message in an outbox folder, oldest first. */
export async function readOutbox(dir: string): Promise<ParsedEml[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(files.map(async (f) => parseEml(await readFile(path.join(dir, f), 'utf8'))));
}

/** The local SMS stand-in's files (`<outbox>/*.sms.txt`), read back in name (time) order. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface SmsFile {
  name: string;
  to: string;
  from: string;
  id: string;
  text: string;
}

export async function smsFiles(dir: string): Promise<SmsFile[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.sms.txt')).sort();
  return Promise.all(
    names.map(async (name) => {
      const raw = await readFile(path.join(dir, name), 'utf8');
      const [head, ...body] = raw.split('\n\n');
      const header = Object.fromEntries(head!.split('\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      return { name, to: header.to!, from: header.from!, id: header['x-message-id']!, text: body.join('\n\n').replace(/\n$/, '') };
    }),
  );
}

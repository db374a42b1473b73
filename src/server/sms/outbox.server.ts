/**
 * The local stand-in for the SMS provider (docs/decisions/043-sms-second-channel.md):
 * each SMS becomes a text file `<time>-<id>.sms.txt` beside the .eml files
 * in $DATA_DIR/outbox, with the header lines `To:` (E.164), `From:` (the
 * sender) and `X-Message-Id:` (the id the delivery webhook takes), a blank
 * line, then the text. One log line names the file, never the number.
 *
 * Numbers in the range +49 1579 9990 000 to …999 are refused as a real
 * provider refuses an unreachable number: the tests use it to make an SMS
 * fail through the real port (README, "SMS").
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { outboxDir } from '../email/outbox.server';
import { SmsRefusedError, type SmsSender } from './port.server';

/** The numbers the stand-in refuses (tests provoke failures with them). */
export const UNREACHABLE_TEST_NUMBERS = /^\+4915799990\d{3}$/;

export function createSmsOutboxSender({ from, dir = outboxDir() }: { from: string; dir?: string }): SmsSender {
  return {
    kind: 'outbox',
    async send(message) {
      if (UNREACHABLE_TEST_NUMBERS.test(message.to)) throw new SmsRefusedError('unreachable');
      const id = randomUUID();
      await mkdir(dir, { recursive: true });
      const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${id.slice(0, 8)}.sms.txt`;
      const body = `To: ${message.to}\nFrom: ${from}\nX-Message-Id: ${id}\n\n${message.text}\n`;
      await writeFile(path.join(dir, file), body, { mode: 0o600 });
      console.info(`sms written to outbox: ${file}`);
      return { id };
    },
  };
}

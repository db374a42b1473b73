/**
 * The email factory: Postmark when POSTMARK_SERVER_TOKEN is set, else a
 * local outbox folder ($DATA_DIR/outbox, one .eml per message). Nothing
 * else changes. The port is port.server.ts, the header and mailbox
 * helpers the adapters share are mailbox.server.ts.
 */
import { notConfigured, readEnv } from '../env.server';
import { createOutboxSender } from './outbox.server';
import type { EmailSender } from './port.server';
import { createPostmarkSender } from './postmark.server';

export function createEmailSender(env = readEnv()): EmailSender {
  if (env.POSTMARK_SERVER_TOKEN) {
    return createPostmarkSender({ token: env.POSTMARK_SERVER_TOKEN, from: env.MAIL_FROM });
  }
  // The outbox is a local folder: never in production, where it would silently lose mail.
  if (env.isProduction) throw notConfigured(['POSTMARK_SERVER_TOKEN']);
  return createOutboxSender({ from: env.MAIL_FROM });
}

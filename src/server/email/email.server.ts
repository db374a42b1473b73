/**
 * The email factory: Postmark when POSTMARK_SERVER_TOKEN is set, else a
 * local outbox folder ($DATA_DIR/outbox, one .eml per message). Nothing
 * else changes. The port is port.server.ts, the header and mailbox
 * helpers the adapters share are mailbox.server.ts.
 *
 * The adapter is loaded with the first message it sends: Postmark's client
 * and nodemailer's MIME builder are what only a delivery needs, so no
 * function's cold start pays for them (docs/decisions/044-rush-cdn-availability-pool.md).
 */
import { notConfigured, readEnv } from '../env.server';
import type { EmailSender } from './port.server';

/**
 * The local outbox, by a specifier the bundler cannot follow (as db/client.ts
 * loads PGlite): production refuses it, and nodemailer's MIME builder would
 * bring Node's HTTP, TLS and zlib modules into every function that emails,
 * loaded at its start.
 */
const OUTBOX_MODULE = ['outbox.server', 'ts'];

function onFirstSend(kind: EmailSender['kind'], load: () => Promise<EmailSender>): EmailSender {
  let loaded: Promise<EmailSender> | undefined;
  return {
    kind,
    async send(message) {
      loaded ??= load();
      return (await loaded).send(message);
    },
  };
}

export function createEmailSender(env = readEnv()): EmailSender {
  const token = env.POSTMARK_SERVER_TOKEN;
  if (token) {
    return onFirstSend('postmark', async () => (await import('./postmark.server')).createPostmarkSender({ token, from: env.MAIL_FROM }));
  }
  // The outbox is a local folder: never in production, where it would silently lose mail.
  if (env.isProduction) throw notConfigured(['POSTMARK_SERVER_TOKEN']);
  return onFirstSend('outbox', async () => {
    // A plain variable (no template literal, which esbuild would expand into a glob), relative so tsx and Vite resolve it.
    const specifier = ['.', OUTBOX_MODULE.join('.')].join('/');
    const { createOutboxSender } = (await import(/* @vite-ignore */ specifier)) as typeof import('./outbox.server');
    return createOutboxSender({ from: env.MAIL_FROM });
  });
}

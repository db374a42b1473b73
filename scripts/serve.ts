/**
 * `npm run serve` (and `npm start`, which builds first): migrates the
 * database, seeds demo data into an empty embedded database, then serves
 * dist/ and the API on PORT (default 4321) until SIGINT/SIGTERM. Once it
 * listens it says where emails go and, on a site without staff accounts,
 * how to create the first admin (startup-notes.ts).
 */
import { driverFor } from '../db/client';
import { closeDb, getDb } from '../src/server/database.server';
import { MigrationError, migrateServerDatabase } from '../db/migrate';
import { seedDemoData } from './demo-data';
import { readEnv } from '../src/server/env.server';
import { SECURITY_HEADERS } from '../src/server/security-headers';
import { SHUTDOWN_GRACE_MS, startLocalServer } from './local-server';
import { startReminderSchedule } from '../src/server/appointment-contact/job.server';
import { runScheduledJob } from '../src/server/scheduled-job.server';
import { expectScheduledJob } from '../src/server/operations/watch.server';
import { logLinesTo } from '../src/server/operations/request-log.server';
import { startContentRebuilds } from './content-rebuild';
import { startupNotes } from './startup-notes';
import { adminExists, DEFAULT_SETUP_SECRET } from '../src/server/auth/auth.server';
import { outboxDir } from '../src/server/email/outbox.server';

// The local server is a development tool; functions on Netlify default to production.
process.env.APP_ENV ??= 'development';
const env = readEnv();
const url = env.DATABASE_URL;
const embedded = driverFor(url) === 'pglite';
if (!embedded) {
  try {
    await migrateServerDatabase(url!, { connectTimeoutMs: 5000 });
  } catch (error) {
    // One clear line and a non-zero exit, never a hang or a raw stack.
    console.error(`cannot start: ${error instanceof MigrationError ? error.message : `database error (${(error as { code?: string }).code ?? (error as Error).name})`}`);
    process.exit(1);
  }
}
const db = await getDb();
if (embedded || process.env.SEED_DEMO_DATA === 'true') {
  if (await seedDemoData(db)) console.info('demo data seeded into the fresh database');
}

const port = Number(process.env.PORT ?? 4321);
// The build's site URL comes from SITE_URL alone (never the port): kept for the content rebuilds.
const buildSiteUrl = process.env.SITE_URL ?? '';
const running = await startLocalServer({
  port,
  host: process.env.HOST ?? '127.0.0.1',
  distDir: 'dist',
  functionsDir: 'netlify/functions',
  headers: { ...SECURITY_HEADERS },
});
// Unset SITE_URL: links in emails (and the Origin check) use the origin this
// server actually listens on, not a fixed default port (the build does
// not do this: its site never follows the port; docs/decisions/031-content-editor-second-pass.md).
if (!process.env.SITE_URL) process.env.SITE_URL = running.url;
console.info(`site and API at ${running.url} (database: ${embedded ? 'embedded PGlite' : 'postgres'}, email: ${env.POSTMARK_SERVER_TOKEN ? 'Postmark' : 'outbox'})`);
for (const note of startupNotes({
  url: running.url,
  outboxDir: env.POSTMARK_SERVER_TOKEN ? null : outboxDir(),
  adminExists: await adminExists(db),
  setupSecretSet: !!env.ADMIN_SETUP_SECRET,
  defaultSetupSecret: DEFAULT_SETUP_SECRET,
})) {
  console.info(note);
}

// The scheduled function's job (reminders, the waitlist's offers, the email outbox): every minute here (REMINDER_INTERVAL_MS for tests).
// Each request and run logs its JSON line, and once the job has run here, requests watch its heartbeat as on
// Netlify (not before: a database the job last ran on yesterday is no outage; docs/decisions/045-operations.md).
logLinesTo((line) => console.info(line));
const reminderSchedule = startReminderSchedule(Number(process.env.REMINDER_INTERVAL_MS ?? 60_000), async () => {
  try {
    await runScheduledJob();
  } finally {
    expectScheduledJob();
  }
});

// Content editor: a save rewrites src/content; rebuild the pages
// so it shows without a restart. Not when the editor commits to a Git host.
const contentRebuilds = process.env.GIT_REPOSITORY ? null : startContentRebuilds({ root: process.cwd(), distDir: 'dist', env: { SITE_URL: buildSiteUrl } });

let stopping = false;
/**
 * Graceful shutdown: stop accepting, let the requests in flight finish
 * (a booking answers 201 only after its emails went out) for up to 10 s,
 * and only then close the database, so no booking commits unanswered.
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.info(`${signal} received, shutting down`);
  const drained = await running.shutdown(SHUTDOWN_GRACE_MS);
  if (!drained) console.warn(`requests still running after ${SHUTDOWN_GRACE_MS / 1000} s were cut off`);
  await reminderSchedule.stop(); // reminders
  await contentRebuilds?.stop(); // content editor
  await closeDb();
  console.info('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

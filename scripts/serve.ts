/**
 * `npm run serve` (and `npm start`, which builds first): migrates the
 * database, seeds demo data into an empty embedded database, then serves
 * dist/ and the API on PORT (default 4321) until SIGINT/SIGTERM.
 */
import { closeDb, driverFor, getDb } from '../db/client';
import { migrateServerDatabase } from '../db/migrate';
import { seedDemoData } from '../db/seed';
import { readEnv } from '../src/server/env.server';
import { SECURITY_HEADERS } from '../src/server/security-headers';
import { startLocalServer } from './local-server';

const env = readEnv();
const url = env.DATABASE_URL;
const embedded = driverFor(url) === 'pglite';
if (!embedded) await migrateServerDatabase(url!);
const db = await getDb();
if (embedded || process.env.SEED_DEMO_DATA === 'true') {
  if (await seedDemoData(db)) console.info('demo data seeded into the fresh database');
}

const port = Number(process.env.PORT ?? 4321);
const running = await startLocalServer({
  port,
  host: process.env.HOST ?? '127.0.0.1',
  distDir: 'dist',
  functionsDir: 'netlify/functions',
  headers: { ...SECURITY_HEADERS },
});
// Unset SITE_URL: links in emails (and the Origin check) use the origin this
// server actually listens on, not a fixed default port (astro.config.mjs does
// the same for canonical URLs and the sitemap at build time).
if (!process.env.SITE_URL) process.env.SITE_URL = running.url;
console.info(`site and API at ${running.url} (database: ${embedded ? 'embedded PGlite' : 'postgres'}, email: ${env.POSTMARK_SERVER_TOKEN ? 'Postmark' : 'outbox'})`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.info(`${signal} received, shutting down`);
  await running.close();
  await closeDb();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

/**
 * `npm run db:migrate`: applies migrations to the server database through its
 * unpooled URL (db/migrate.ts), or to the embedded database locally.
 *
 * On Netlify (NETLIFY=true) it runs after the site has built and only in the
 * production context: deploy previews and branch deploys skip it unless
 * MIGRATE_DEPLOY_PREVIEW=true is set for their context (with variables that
 * point at their own Neon branch, README). A production build without a
 * server database fails here with a clear message.
 */
import { closeDb, getDb } from './client';
import { MigrationError, migrateServerDatabase, migrationUrlFrom } from './migrate';
import { databaseSettingsFrom, provideDatabaseSettings } from './settings';

// A command of its own: its settings come from its own environment.
provideDatabaseSettings(() => databaseSettingsFrom(process.env));

function fail(message: string): never {
  console.error(`db:migrate failed: ${message}`);
  process.exit(1);
}

const onNetlify = process.env.NETLIFY === 'true';
const context = process.env.CONTEXT ?? '';

if (onNetlify && context !== 'production' && process.env.MIGRATE_DEPLOY_PREVIEW !== 'true') {
  console.log(`migrations skipped in the ${context || 'unknown'} context: only production builds migrate (README, "Deploy previews")`);
  process.exit(0);
}

let url: string | undefined;
try {
  url = migrationUrlFrom(process.env);
} catch (error) {
  fail((error as Error).message);
}

if (!url || url.startsWith('pglite:')) {
  if (onNetlify) {
    fail('no server database: set DATABASE_URL and DATABASE_URL_UNPOOLED (or connect Neon, which sets NETLIFY_DATABASE_URL and NETLIFY_DATABASE_URL_UNPOOLED)');
  }
  process.env.APP_ENV ??= 'development'; // the embedded database is local by definition
  await getDb(); // and migrated when opened
  await closeDb();
} else {
  try {
    await migrateServerDatabase(url);
  } catch (error) {
    fail(error instanceof MigrationError ? error.message : `${(error as Error).name} ${(error as { code?: string }).code ?? ''}`.trim());
  }
}
console.log('migrations applied');

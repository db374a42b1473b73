/** `npm run db:migrate`: applies migrations to DATABASE_URL (or the embedded database). */
import { closeDb, driverFor, getDb } from './client';
import { migrateServerDatabase } from './migrate';

const url = process.env.DATABASE_URL;
if (driverFor(url) === 'pglite') {
  await getDb(); // the embedded database is migrated when opened
  await closeDb();
} else {
  await migrateServerDatabase(url!);
}
console.log('migrations applied');

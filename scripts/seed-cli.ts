/** `npm run db:seed`: demo data, only into a database without practice data. */
import { closeDb, driverFor, getDb } from '../db/client';
import { migrateServerDatabase, migrationUrlFrom } from '../db/migrate';
import { databaseSettingsFrom, provideDatabaseSettings } from '../db/settings';
import { seedDemoData } from './demo-data';

// A command of its own: its settings come from its own environment.
provideDatabaseSettings(() => databaseSettingsFrom(process.env));

const url = migrationUrlFrom(process.env);
if (driverFor(url) !== 'pglite') await migrateServerDatabase(url!);
else process.env.APP_ENV ??= 'development'; // the embedded database is local by definition
const seeded = await seedDemoData(await getDb());
await closeDb();
console.log(seeded ? 'demo data seeded' : 'database already has data; seed skipped');

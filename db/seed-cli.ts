/** `npm run db:seed`: demo data, only into a database without practice data. */
import { closeDb, driverFor, getDb } from './client';
import { migrateServerDatabase } from './migrate';
import { seedDemoData } from './seed';

const url = process.env.DATABASE_URL;
if (driverFor(url) !== 'pglite') await migrateServerDatabase(url!);
const seeded = await seedDemoData(await getDb());
await closeDb();
console.log(seeded ? 'demo data seeded' : 'database already has data; seed skipped');

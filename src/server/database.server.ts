/**
 * The process-wide database for the site and the functions: db/client.ts
 * opened with the settings of the config module (env.server.ts, which
 * installs them when loaded and refuses the embedded database in
 * production: 503 not-configured).
 */
import { closeDb, getDatabaseHandle, getDb } from '../../db/client';
import './env.server';

export { closeDb, getDatabaseHandle, getDb };
export type { Database, Executor } from '../../db/client';

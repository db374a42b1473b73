/**
 * The process-wide database for the site and the functions: db/client.ts
 * opened with the settings of the config module (env.server.ts), which
 * also refuses the embedded database in production (503 not-configured).
 * Loading this module installs those settings; route() (http.server.ts)
 * loads it, so every function has it before its first query.
 */
import { closeDb, getDatabaseHandle, getDb, provideDatabaseSettings } from '../../db/client';
import { databaseSettings } from './env.server';

provideDatabaseSettings(databaseSettings);

export { closeDb, getDatabaseHandle, getDb };
export type { Database, Executor } from '../../db/client';

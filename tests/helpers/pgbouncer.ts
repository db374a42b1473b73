/**
 * Debian's PgBouncer in front of a test Postgres: in transaction mode it is
 * what Neon's pooled (`-pooler`) host is. `.ci/run` installs it.
 *
 * `auth: 'plain'` asks clients for a clear-text password, as Neon's proxy
 * does, which the Neon driver's pipelined login (password sent with the
 * startup message, before the server asks) needs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/embedded-postgres';

export const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));

export interface RunningPgBouncer {
  port: number;
  /** postgres:// URL of `database` through the bouncer, with the server's user and password. */
  url: string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** postgres://user:password@host:port/database of the server. */
  serverUrl: string;
  mode?: 'transaction' | 'session';
  auth?: 'any' | 'plain';
  poolSize?: number;
}

async function waitForPort(port: number, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`pgbouncer did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startPgBouncer({ serverUrl, mode = 'transaction', auth = 'any', poolSize = 20 }: PgBouncerOptions): Promise<RunningPgBouncer> {
  if (!PGBOUNCER) throw new Error('pgbouncer is not installed: apt-get install pgbouncer (.ci/run does)');
  const server = new URL(serverUrl);
  const database = server.pathname.slice(1);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'praxis-pgbouncer-'));
  // As root, pgbouncer runs as user postgres, which must read its files.
  await chmod(dir, 0o777);
  const port = await freePort();
  await writeFile(path.join(dir, 'userlist.txt'), `"${user}" "${password}"\n`);
  await writeFile(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${server.hostname} port=${server.port} dbname=${database} user=${user} password=${password}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      `auth_type = ${auth}`,
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      `pool_mode = ${mode}`,
      'max_client_conn = 500',
      // The server's user may read the console (`SHOW POOLS`): the rush benchmark counts connections.
      `admin_users = ${user}`,
      `default_pool_size = ${poolSize}`,
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  for (const file of ['pgbouncer.ini', 'userlist.txt']) await chmod(path.join(dir, file), 0o644);
  const ini = path.join(dir, 'pgbouncer.ini');
  const child: ChildProcess =
    process.getuid?.() === 0
      ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, ini], { stdio: 'ignore' })
      : spawn(PGBOUNCER, [ini], { stdio: 'ignore' });
  await waitForPort(port);
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    port,
    url: url.href,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        // It exits at once; should it hang, it is killed, and gone before its folder is.
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

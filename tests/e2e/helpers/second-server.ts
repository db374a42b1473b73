/**
 * A second server of the same build (`scripts/serve.ts`) with its own
 * embedded database and outbox, for what the shared e2e server must not
 * change: for example a practice address the email port refuses (the
 * reserved .invalid domain), so sending fails for real, or (with `cwd`) a
 * copy of the project whose pages the content editor rewrites.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { clockEnv } from './clock';

export interface SecondServer {
  url: string;
  /** The server's outbox folder (its emails, as .eml files). */
  outbox: string;
  stop(): Promise<void>;
}

export async function startSecondServer(name: string, env: Record<string, string>, options: { cwd?: string } = {}): Promise<SecondServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `praxis-e2e-${name}-`));
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
    // On the suite's clock, like the main server (E2E_NOW, ./clock.ts).
    // Its database in memory, a copy of the migrated image (db/pglite.ts): it lives
    // as long as the server, and nothing of it is written to disk.
    env: { ...process.env, ...clockEnv(), PORT: '0', DATA_DIR: dataDir, DATABASE_URL: 'pglite:memory', POSTMARK_SERVER_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /site and API at (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!.replace(/\/$/, ''));
      });
      server.once('exit', (code) => reject(new Error(`second server exited with ${code}: ${out}`)));
    });
    return { url, outbox: path.join(dataDir, 'outbox'), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

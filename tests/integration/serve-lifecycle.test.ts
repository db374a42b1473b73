/**
 * `npm start`'s server (scripts/serve.ts): on a fresh data folder it
 * migrates and seeds the embedded database, serves the API, and on SIGTERM
 * closes cleanly (exit code 0, database released for the next process).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/embedded-postgres';

function startServe(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
    env: { ...process.env, DATABASE_URL: '', POSTMARK_SERVER_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('site and API at')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`serve exited early (${code}): ${output}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => output };
}

describe('npm start server lifecycle', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'serve-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('serves the seeded API on PORT, then exits 0 on SIGTERM and releases the database', async () => {
    for (const round of [1, 2]) {
      const port = await freePort();
      const serve = startServe({ PORT: String(port), DATA_DIR: dataDir });
      await serve.ready;
      const res = await fetch(`http://localhost:${port}/api/appointment-types`);
      expect(res.status).toBe(200);
      const names = ((await res.json()) as Array<{ name: string }>).map((t) => t.name);
      expect(names).toContain('Akutsprechstunde');
      // The first start seeds; the second finds data and leaves it alone.
      expect(serve.output().includes('demo data seeded')).toBe(round === 1);
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
      expect(serve.output()).toContain('SIGTERM received, shutting down');
    }
    expect(await readdir(dataDir)).toContain('pglite');
  }, 90_000);
});

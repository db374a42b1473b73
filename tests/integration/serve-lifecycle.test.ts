/**
 * `npm start`'s server (scripts/serve.ts): on a fresh data folder it
 * migrates and seeds the embedded database, serves the API, and on SIGTERM
 * closes cleanly (exit code 0, database released for the next process).
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from '../../scripts/embedded-postgres';
import { addDaysToDate, berlinToday } from '../../src/lib/berlin-time';
import { readOutbox } from '../helpers/eml';
import { bookingRequest } from '../helpers/patient';
import { useTestBed } from '../setup/test-bed';

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
  const bed = useTestBed({ dataDir: 'serve-' });

  it('serves the seeded API on PORT, then exits 0 on SIGTERM and releases the database', async () => {
    for (const round of [1, 2]) {
      const port = await freePort();
      const serve = startServe({ PORT: String(port), DATA_DIR: bed.dataDir });
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
    expect(await readdir(bed.dataDir)).toContain('pglite');
  }, 90_000);

  it('without SITE_URL, links in emails point at the origin the server listens on (PORT)', async () => {
    const port = await freePort();
    const site = { SITE_URL: '' };
    const serve = startServe({ PORT: String(port), DATA_DIR: bed.dataDir, ...site });
    await serve.ready;
    try {
      const base = `http://localhost:${port}`;
      const types = (await (await fetch(`${base}/api/appointment-types`)).json()) as Array<{ id: string; max_advance_days: number }>;
      let booked = false;
      for (const type of types) {
        const today = berlinToday();
        const query = new URLSearchParams({ type: type.id, from: today, to: addDaysToDate(today, Math.min(type.max_advance_days, 30)) });
        const { days } = (await (await fetch(`${base}/api/availability?${query}`)).json()) as { days: Array<{ date: string; times: string[] }> };
        const day = days.find((d) => d.times.length > 0);
        if (!day) continue;
        const res = await fetch(`${base}/api/bookings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify(bookingRequest(type.id, day.date, day.times[0]!)),
        });
        expect(res.status).toBe(201);
        booked = true;
        break;
      }
      expect(booked).toBe(true);
      // The server sends right after its answer (docs/decisions/035): wait for the file.
      const patient = await vi.waitFor(async () => {
        const found = (await readOutbox(bed.outbox)).find((m) => m.headers.to === 'erika@example.org');
        if (!found) throw new Error('no confirmation yet');
        return found;
      }, { timeout: 30_000, interval: 200 });
      expect(patient.text).toContain(`${base}/termin/absagen?token=`);
      expect(patient.text).not.toContain('localhost:4321');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }, 90_000);
});

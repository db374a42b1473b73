/**
 * Graceful shutdown of `npm start`'s server
 * (docs/decisions/001-local-runtime.md): on SIGTERM it stops accepting,
 * lets the requests in flight finish (their emails included) and closes the
 * database last, so no booking is committed unanswered. Bookings are fired
 * in parallel at the real server, SIGTERM arrives while they are queued on
 * the embedded database, and afterwards every committed booking must have
 * been answered 201 and emailed.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/embedded-postgres';
import { useTestBed } from '../setup/test-bed';

const BOOKINGS = 24;

describe('graceful shutdown under load', () => {
  const bed = useTestBed({ dataDir: 'serve-shutdown-' });

  it('answers every booking it commits after SIGTERM, emails included, then exits 0', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
      env: { ...process.env, DATABASE_URL: '', POSTMARK_SERVER_TOKEN: '', APP_ENV: 'development', PORT: String(port), DATA_DIR: bed.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => output.includes('site and API at') && (clearInterval(timer), resolve()), 50);
      void exited.then((code) => (clearInterval(timer), reject(new Error(`serve exited early (${code}): ${output}`))));
    });
    const base = `http://localhost:${port}`;

    // Free times of the seeded types over the next weeks: one booking per time, so none conflicts.
    const types = (await (await fetch(`${base}/api/appointment-types`)).json()) as Array<{ id: string }>;
    const today = new Date();
    const iso = (d: Date) => d.toISOString().slice(0, 10);
    const slots: Array<{ type: string; date: string; time: string }> = [];
    for (const type of types) {
      const to = new Date(today.getTime() + 40 * 86_400_000);
      const res = await fetch(`${base}/api/availability?type=${type.id}&from=${iso(today)}&to=${iso(to)}`);
      const body = (await res.json()) as { days: Array<{ date: string; times: string[] }> };
      for (const day of body.days) for (const time of day.times) slots.push({ type: type.id, date: day.date, time });
    }
    expect(slots.length).toBeGreaterThanOrEqual(BOOKINGS);

    const statuses: number[] = [];
    const requests = slots.slice(0, BOOKINGS).map((slot, i) =>
      fetch(`${base}/api/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          appointment_type_id: slot.type,
          appointment_date: slot.date,
          appointment_time: slot.time,
          first_name: 'Patient',
          last_name: `Nummer ${i}`,
          birth_date: '1980-01-01',
          phone: '+49 211 1234567',
          email: `p${i}@example.org`,
          consent: true,
          language: 'de',
        }),
      }).then(
        (res) => {
          statuses.push(res.status);
          return res.status;
        },
        () => 0,
      ),
    );
    // SIGTERM while the first answers come in and the rest wait on the database.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => statuses.length > 0 && (clearInterval(timer), resolve()), 5);
    });
    child.kill('SIGTERM');
    const answered = await Promise.all(requests);
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM received, shutting down');
    expect(output).not.toContain('cut off');

    const created = answered.filter((s) => s === 201).length;
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = new PGlite(path.join(bed.dataDir, 'pglite'));
    const { rows } = await pg.query<{ n: number }>('select count(*)::int as n from booked_slots');
    await pg.close();
    // No orphan: every committed booking was answered 201 …
    expect(rows[0]!.n).toBe(created);
    expect(created).toBeGreaterThan(0);
    // … and both its emails went out before the process ended.
    const mails = (await readdir(bed.outbox)).filter((f) => f.endsWith('.eml'));
    expect(mails).toHaveLength(created * 2);
    // Whatever was not booked got a clear answer (503 while stopping) or never connected, never a 5xx bug.
    expect(answered.filter((s) => s !== 201 && s !== 503 && s !== 0 && s !== 429)).toEqual([]);
  }, 120_000);
});

/**
 * The local server (scripts/serve.ts) runs the reminder job on an interval
 * (every minute by default; REMINDER_INTERVAL_MS here so the test is quick)
 * and stops it on shutdown. Real Postgres, so the test can make a reminder
 * due while the server owns the database.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../scripts/embedded-postgres';
import { addDaysToDate, berlinToday } from '../../src/lib/berlin-time';
import { readOutbox } from '../helpers/eml';
import { useTestBed } from '../setup/test-bed';
import { bookingRequest } from '../helpers/patient';

describe('local server runs the reminder job', () => {
  const bed = useTestBed({ dataDir: 'serve-reminders-', separateDatabase: true });
  let client: pg.Client;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: bed.separateUrl });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
  });

  it('sends a due reminder within the interval, deletes it, and stops cleanly on SIGTERM', async () => {
    const { rows } = await client.query<{ id: string }>(
      `insert into appointment_types (name, description, max_advance_days) values ('Check-up', 'Vorsorge', 14) returning id`,
    );
    const typeId = rows[0]!.id;
    await client.query(
      `insert into appointment_time_slots (appointment_type_id, day_of_week, start_time, end_time)
       select $1, d, '08:00', '18:00' from generate_series(0, 6) d`,
      [typeId],
    );
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: bed.separateUrl,
        POSTMARK_SERVER_TOKEN: '',
        DATA_ENCRYPTION_KEY: '',
        APP_ENV: 'development',
        DATA_DIR: bed.dataDir,
        PORT: String(port),
        REMINDER_INTERVAL_MS: '300',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await vi.waitFor(() => expect(output).toContain('site and API at'), { timeout: 60_000, interval: 50 });
      const origin = `http://localhost:${port}`;
      const res = await fetch(`${origin}/api/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify(bookingRequest(typeId, addDaysToDate(berlinToday(), 3), '10:00', { reminder: true })),
      });
      expect(res.status).toBe(201);
      expect((await client.query('select count(*)::int as n from reminders')).rows[0].n).toBe(1);
      // Make it due now; the server's next tick sends it.
      await client.query(`update reminders set send_at = now() - interval '1 minute'`);
      const outbox = bed.outbox;
      const reminderMails = await vi.waitFor(
        async () => {
          const mails = (await readOutbox(outbox)).filter((m) => m.subject.startsWith('Erinnerung'));
          expect(mails).toHaveLength(1);
          return mails;
        },
        { timeout: 30_000, interval: 100 },
      );
      expect(reminderMails[0]!.headers.to).toBe('erika@example.org');
      await vi.waitFor(async () => expect((await client.query('select count(*)::int as n from reminders')).rows[0].n).toBe(0), { timeout: 30_000, interval: 100 });
      // The run logs after its transaction has committed: wait for the lines, as for the file.
      await vi.waitFor(() => expect(output).toContain('reminders: 1 queued'), { timeout: 30_000, interval: 50 });
      // Queued and sent in the same run; its log line follows the file.
      await vi.waitFor(() => expect(output).toContain('emails: 1 sent'), { timeout: 30_000, interval: 50 });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // Only one reminder, however many ticks passed.
    expect((await readOutbox(bed.outbox)).filter((m) => m.subject.startsWith('Erinnerung'))).toHaveLength(1);
  }, 180_000);
});

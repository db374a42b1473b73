/**
 * Opt-in reminders (DESIGN.md, Reminders) through the real handlers, on
 * PGlite and on a real Postgres: what a booking with a reminder stores
 * (sealed, nothing in clear), when the row goes (sent, cancelled, released,
 * begun, moved), the scheduled function, and two job runs at once.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import bookings from '../../netlify/functions/bookings';
import cancel from '../../netlify/functions/bookings-cancel';
import sendReminders, { config as sendRemindersConfig } from '../../netlify/functions/send-reminders';
import { appointmentTimeSlots, appointmentTypes, bookedSlots, reminders, rateLimits } from '../../db/schema';
import { releaseBookedSlot } from '../../src/server/admin/booked-slots.server';
import type { EmailMessage, EmailSender } from '../../src/server/email/email.server';
import { KEY_FILE_NAME, parseKeyRing, reminderKeyRing } from '../../src/server/reminders/keys.server';
import { open } from '../../src/server/reminders/seal.server';
import { sendDueReminders } from '../../src/server/reminders/job.server';
import { moveReminder } from '../../src/server/reminders/store.server';
import { call } from '../helpers/http';
import { readOutbox } from '../helpers/eml';
import { databaseKinds, useTestDatabase, type TestDatabase } from '../helpers/test-database';
import { captureConsole } from '../helpers/console-capture';
import { testPatient } from '../helpers/patient';
import { setEnv } from '../helpers/env';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const at = (iso: string) => new Date(iso);

const patient = { ...testPatient, email: 'erika.mustermann@example.org' };

/** Every row of every table in the database (all schemas but the system's), as text. */
async function everyTableAsText(t: TestDatabase): Promise<{ tables: string[]; text: string }> {
  const result = await t.db.execute(
    sql`select table_schema as s, table_name as n from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  const tables = (result as unknown as { rows: Array<{ s: string; n: string }> }).rows.map((r) => `"${r.s}"."${r.n}"`);
  const out: string[] = [];
  for (const table of tables) {
    const rows = await t.db.execute(sql.raw(`select row_to_json(x)::text as j from ${table} x`));
    out.push(...(rows as unknown as { rows: Array<{ j: string }> }).rows.map((r) => r.j));
  }
  return { tables, text: out.join('\n') };
}

/** An email port that records what it would send, optionally slowly or failing. */
function recordingSender(options: { delayMs?: number; fail?: boolean } = {}) {
  const sent: EmailMessage[] = [];
  const sender: EmailSender = {
    kind: 'outbox',
    async send(message) {
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      if (options.fail) {
        const error = new Error('mail service down');
        error.name = 'PostmarkError';
        throw error;
      }
      sent.push(message);
      return { id: String(sent.length) };
    },
  };
  return { sender, sent };
}

describe.each(databaseKinds)('reminders on %s', (kind) => {
  let t: TestDatabase;
  let dataDir: string;
  let outbox: string;
  let checkUp: string;
  const logs: string[] = [];
  let restoreEnv: () => void;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'reminders-'));
    restoreEnv = setEnv({
      DATA_DIR: dataDir,
      APP_ENV: 'development',
      SITE_URL: 'https://praxis.example',
      PRACTICE_EMAIL: 'team@praxis.example',
      DATABASE_POOL_SIZE: '10',
    });
    outbox = path.join(dataDir, 'outbox');
    t = await useTestDatabase(kind);
    const [type] = await t.db
      .insert(appointmentTypes)
      .values({ name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 3 })
      .returning();
    checkUp = type!.id;
    await t.db
      .insert(appointmentTimeSlots)
      .values([1, 2, 3, 4, 5].map((dayOfWeek) => ({ appointmentTypeId: checkUp, dayOfWeek, startTime: '08:00', endTime: '18:00' })));
  });

  afterAll(async () => {
    vi.useRealTimers();
    await t.dispose();
    await rm(dataDir, { recursive: true, force: true });
    restoreEnv();
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await t.db.delete(bookedSlots);
    // Each test books as the same patient from one address: start every test under the abuse limits.
    await t.db.delete(rateLimits);
    await rm(outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const book = (overrides: Record<string, unknown> = {}, ip?: string) =>
    call(bookings, '/api/bookings', {
      method: 'POST',
      ip,
      body: { appointment_type_id: checkUp, appointment_date: '2030-01-09', appointment_time: '09:00', ...patient, ...overrides },
    });
  const reminderRows = () => t.db.select().from(reminders);
  const tokenFromOutbox = async (email: string) => {
    const mail = (await readOutbox(outbox)).find((m) => m.headers.to === email && /Terminbestätigung|confirmation/.test(m.subject))!;
    return /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
  };
  const runFunction = async () => {
    const response = await sendReminders();
    expect(response.status).toBe(200);
    return (await response.json()) as { sent: number; expired: number; failed: number };
  };

  it('keeps nothing without the tick (absent or false)', async () => {
    expect((await book()).status).toBe(201);
    expect((await book({ appointment_time: '09:20', reminder: false })).status).toBe(201);
    expect(await reminderRows()).toHaveLength(0);
  });

  it('with the tick: one row with the booking, the send time and one sealed value under the local key file', async () => {
    const res = await book({ reminder: true });
    expect(res.status).toBe(201);
    const rows = await reminderRows();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.bookingId).toBe(res.json.booking.id);
    // 24 hours before Wednesday 09:00 in Berlin (winter time, UTC+1).
    expect(row.sendAt.toISOString()).toBe('2030-01-08T08:00:00.000Z');
    const keyFile = path.join(dataDir, KEY_FILE_NAME);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const ring = parseKeyRing(await readFile(keyFile, 'utf8'));
    expect(row.keyId).toBe(ring.current.id);
    expect(Object.keys(row).sort()).toEqual(['bookingId', 'createdAt', 'id', 'keyId', 'sealed', 'sendAt']);
    const opened = open({ keyId: row.keyId, sealed: row.sealed }, row.bookingId, ring);
    expect(opened).toEqual({
      email: patient.email,
      firstName: 'Erika',
      language: 'de',
      token: await tokenFromOutbox(patient.email),
    });
  });

  it('stores and logs nothing the patient entered in clear: every table and the log, after booking and sending', async () => {
    const values = { first_name: 'Zerberus', last_name: 'Quastenflosser', phone: '0211 98765432', email: 'zq@example.org', birth_date: '1971-02-03' };
    expect((await book({ ...values, reminder: true })).status).toBe(201);
    const token = await tokenFromOutbox('zq@example.org');
    const secrets = ['Zerberus', 'Quastenflosser', '98765432', 'zq@example.org', '1971-02-03', '03.02.1971', token];
    const afterBooking = await everyTableAsText(t);
    expect(afterBooking.tables).toEqual(expect.arrayContaining(['"public"."reminders"', '"public"."booked_slots"']));
    expect(afterBooking.text).toContain('"sealed"'); // the reminder row is in the dump
    for (const secret of secrets) {
      expect(afterBooking.text).not.toContain(secret);
      expect(logs.join('\n')).not.toContain(secret);
    }
    vi.setSystemTime(at('2030-01-08T08:05:00Z'));
    expect(await runFunction()).toEqual({ sent: 1, expired: 0, failed: 0 });
    const afterSending = await everyTableAsText(t);
    for (const secret of secrets) {
      expect(afterSending.text).not.toContain(secret);
      expect(logs.join('\n')).not.toContain(secret);
    }
    expect(logs.join('\n')).toContain('reminders: 1 sent');
  });

  it('answers 400 naming reminder for a non-boolean, and stores nothing', async () => {
    const res = await book({ reminder: 'yes' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    expect(res.json.errors).toEqual({ reminder: ['errors.reminderInvalid'] });
    expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
  });

  it('in production without DATA_ENCRYPTION_KEY, a booking with a reminder is 503 not-configured and nothing is stored', async () => {
    // Every other variable production requires is set, so only the reminder key is missing.
    vi.stubEnv('APP_ENV', 'production');
    vi.stubEnv('JWT_SECRET', 'j'.repeat(40));
    vi.stubEnv('POSTMARK_SERVER_TOKEN', 'postmark-token');
    vi.stubEnv('MAIL_FROM', 'Praxis <praxis@example.org>');
    vi.stubEnv('PRACTICE_EMAIL', 'praxis@example.org');
    vi.stubEnv('SITE_URL', 'https://praxis.example');
    vi.stubEnv('DATA_ENCRYPTION_KEY', '');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await book({ reminder: true });
      expect(res.status).toBe(503);
      expect(res.json.type).toBe('not-configured');
      // Production never opens the embedded database, so on PGlite the database is what is missing.
      const missing = kind === 'pglite' ? 'DATABASE_URL' : 'DATA_ENCRYPTION_KEY';
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringContaining(missing)]);
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
    expect(await reminderRows()).toHaveLength(0);
  });

  it('makes no reminder when the send time has already passed (booked less than 24 hours ahead)', async () => {
    // Today 10:00: its send time was yesterday; the confirmation has just gone.
    expect((await book({ appointment_date: '2030-01-07', appointment_time: '10:00', reminder: true })).status).toBe(201);
    expect(await reminderRows()).toHaveLength(0);
  });

  it('the scheduled function runs every 15 minutes, sends the due reminder once in German and deletes it', async () => {
    expect(sendRemindersConfig).toEqual({ schedule: '*/15 * * * *' });
    expect((await book({ reminder: true })).status).toBe(201);
    const token = await tokenFromOutbox(patient.email);
    vi.setSystemTime(at('2030-01-08T07:59:00Z'));
    expect(await runFunction()).toEqual({ sent: 0, expired: 0, failed: 0 });
    expect(await reminderRows()).toHaveLength(1);
    vi.setSystemTime(at('2030-01-08T08:00:00Z'));
    expect(await runFunction()).toEqual({ sent: 1, expired: 0, failed: 0 });
    expect(await reminderRows()).toHaveLength(0);
    expect(await runFunction()).toEqual({ sent: 0, expired: 0, failed: 0 });
    const mails = (await readOutbox(outbox)).filter((m) => m.subject.startsWith('Erinnerung'));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.headers.to).toBe(patient.email);
    expect(mail.subject).toBe('Erinnerung: Check-up am 09.01.2030 um 09:00');
    for (const part of ['Guten Tag Erika,', 'Mittwoch, 9. Januar 2030', '09:00 Uhr', 'Königsallee 1', 'Versichertenkarte']) {
      expect(mail.text).toContain(part);
    }
    expect(mail.text).toContain(`https://praxis.example/termin/absagen?token=${token}`);
    // The booking itself stays.
    expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
  });

  it('writes the reminder in English for an English booking', async () => {
    expect((await book({ language: 'en', reminder: true })).status).toBe(201);
    vi.setSystemTime(at('2030-01-08T08:00:00Z'));
    expect((await runFunction()).sent).toBe(1);
    const mail = (await readOutbox(outbox)).find((m) => m.subject.startsWith('Reminder'))!;
    expect(mail.subject).toBe('Reminder: Health check on Wed 9 Jan 2030 at 09:00');
    expect(mail.text).toContain('Wednesday, 9 January 2030');
    expect(mail.text).toMatch(/https:\/\/praxis\.example\/en\/termin\/absagen\?token=/);
  });

  it('deletes the row when the patient cancels (foreign key cascade)', async () => {
    expect((await book({ reminder: true })).status).toBe(201);
    const token = await tokenFromOutbox(patient.email);
    expect(await reminderRows()).toHaveLength(1);
    const res = await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } });
    expect(res.status).toBe(200);
    expect(await reminderRows()).toHaveLength(0);
  });

  it('deletes the row when the practice releases the booking (foreign key cascade)', async () => {
    const res = await book({ reminder: true });
    await releaseBookedSlot(t.db, res.json.booking.id);
    expect(await reminderRows()).toHaveLength(0);
  });

  it('deletes the row unsent once the appointment has begun', async () => {
    expect((await book({ reminder: true })).status).toBe(201);
    vi.setSystemTime(at('2030-01-09T08:00:00Z')); // 09:00 in Berlin: begun
    expect(await runFunction()).toEqual({ sent: 0, expired: 1, failed: 0 });
    expect(await reminderRows()).toHaveLength(0);
    expect((await readOutbox(outbox)).filter((m) => m.subject.startsWith('Erinnerung'))).toHaveLength(0);
  });

  it('keeps the row when sending fails and sends it on the next run, logging no address', async () => {
    expect((await book({ reminder: true })).status).toBe(201);
    const keys = await reminderKeyRing();
    const now = at('2030-01-08T08:00:00Z');
    const failing = recordingSender({ fail: true });
    expect(await sendDueReminders(t.db, { sender: failing.sender, siteUrl: 'https://praxis.example', keys, now })).toEqual({ sent: 0, expired: 0, failed: 1 });
    expect(await reminderRows()).toHaveLength(1);
    expect(logs.join('\n')).toContain('reminder not sent: PostmarkError');
    expect(logs.join('\n')).not.toContain(patient.email);
    const working = recordingSender();
    expect(await sendDueReminders(t.db, { sender: working.sender, siteUrl: 'https://praxis.example', keys, now })).toEqual({ sent: 1, expired: 0, failed: 0 });
    expect(working.sent.map((m) => m.to)).toEqual([patient.email]);
    expect(await reminderRows()).toHaveLength(0);
  });

  it('a row sealed with a key that is no longer configured waits, and opens again once the key is back (rotation)', async () => {
    const oldRing = await reminderKeyRing(); // the local key file's key
    expect((await book({ reminder: true })).status).toBe(201);
    const now = at('2030-01-08T08:00:00Z');
    const newKey = parseKeyRing(Buffer.alloc(32, 7).toString('hex'));
    const onlyNew = recordingSender();
    expect(await sendDueReminders(t.db, { sender: onlyNew.sender, siteUrl: 'https://praxis.example', keys: newKey, now })).toMatchObject({ sent: 0, failed: 1 });
    const both = parseKeyRing(`${Buffer.alloc(32, 7).toString('hex')},${oldRing.current.key.toString('hex')}`);
    const rotated = recordingSender();
    expect(await sendDueReminders(t.db, { sender: rotated.sender, siteUrl: 'https://praxis.example', keys: both, now })).toMatchObject({ sent: 1, failed: 0 });
    expect(rotated.sent).toHaveLength(1);
  });

  describe('moveReminder (for rescheduling)', () => {
    it('moves the send time with the booking; the old time sends nothing, the new one does', async () => {
      const res = await book({ reminder: true });
      const id = res.json.booking.id as string;
      // The reschedule itself comes later; here the booking is moved by hand and the reminder follows.
      await t.db.update(bookedSlots).set({ appointmentDate: '2030-01-11', appointmentTime: '10:20' }).where(eq(bookedSlots.id, id));
      expect(await moveReminder(t.db, id, '2030-01-11', '10:20')).toBe('moved');
      expect((await reminderRows())[0]!.sendAt.toISOString()).toBe('2030-01-10T09:20:00.000Z');
      vi.setSystemTime(at('2030-01-08T08:00:00Z'));
      expect((await runFunction()).sent).toBe(0);
      vi.setSystemTime(at('2030-01-10T09:20:00Z'));
      expect((await runFunction()).sent).toBe(1);
      const mail = (await readOutbox(outbox)).find((m) => m.subject.startsWith('Erinnerung'))!;
      expect(mail.subject).toBe('Erinnerung: Check-up am 11.01.2030 um 10:20');
    });

    it('deletes the reminder when the new time is less than 24 hours ahead; answers none without a reminder', async () => {
      const res = await book({ reminder: true });
      expect(await moveReminder(t.db, res.json.booking.id, '2030-01-07', '16:00')).toBe('deleted');
      expect(await reminderRows()).toHaveLength(0);
      expect(await moveReminder(t.db, res.json.booking.id, '2030-01-11', '10:20')).toBe('none');
    });
  });

  it('two job runs at once send every due reminder exactly once', async () => {
    const count = 24;
    const times = ['08:00', '08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20'];
    for (let i = 0; i < count; i++) {
      // One client address per patient: the booking limit allows 10 an hour from one address.
      const res = await book({ appointment_time: times[i % times.length], email: `p${i}@example.org`, reminder: true }, `198.51.100.${i + 1}`);
      expect(res.status).toBe(201);
    }
    expect(await reminderRows()).toHaveLength(count);
    const keys = await reminderKeyRing();
    const now = at('2030-01-08T12:00:00Z');
    const a = recordingSender({ delayMs: 15 });
    const b = recordingSender({ delayMs: 15 });
    const [ra, rb] = await Promise.all([
      sendDueReminders(t.db, { sender: a.sender, siteUrl: 'https://praxis.example', keys, now, batchSize: 4 }),
      sendDueReminders(t.db, { sender: b.sender, siteUrl: 'https://praxis.example', keys, now, batchSize: 4 }),
    ]);
    const addresses = [...a.sent, ...b.sent].map((m) => m.to).sort();
    expect(addresses).toEqual(Array.from({ length: count }, (_, i) => `p${i}@example.org`).sort());
    expect(ra.sent + rb.sent).toBe(count);
    if (kind === 'postgres') {
      // Both runs really worked side by side, each on rows the other skipped.
      expect(ra.sent).toBeGreaterThan(0);
      expect(rb.sent).toBeGreaterThan(0);
    }
    expect(await reminderRows()).toHaveLength(0);
  });
});

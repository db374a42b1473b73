/**
 * The appointment contact and its opt-in reminder
 * (docs/decisions/021-appointment-contact-and-practice-changes.md,
 * docs/decisions/009-reminders-sealed-at-rest.md) through the real
 * handlers, on PGlite and on a real Postgres: what every online booking
 * stores (sealed, nothing in clear), when the contact goes (cancelled,
 * cancelled by staff, ended), when the reminder goes (sent, begun, moved),
 * the scheduled function, and two job runs at once.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import bookings from '../../netlify/functions/bookings';
import cancel from '../../netlify/functions/bookings-cancel';
import sendReminders, { config as sendRemindersConfig } from '../../netlify/functions/send-reminders';
import { appointmentContacts, bookedSlots, cancelledBookings, emailOutbox, rateLimits } from '../../db/schema';
import type { EmailMessage, EmailSender } from '../../src/server/email/port.server';
import { parseKeyRing, dataKeyRing } from '../../src/server/appointment-contact/keys.server';
import { open } from '../../src/server/appointment-contact/seal.server';
import { purgeEnded } from '../../src/server/appointment-contact/job.server';
import { queueDueReminders } from '../../src/server/appointment-contact/reminders.server';
import { deliverQueued } from '../../src/server/email/delivery.server';
import type { KeyRing } from '../../src/server/appointment-contact/keys.server';
import { followMove } from '../../src/server/appointment-contact/store.server';
import { findById } from '../../src/server/bookings/lookup.server';
import { cancelLockedAsPractice } from '../../src/server/bookings/staff.server';
import { call, settled } from '../helpers/http';
import { readOutbox } from '../helpers/eml';
import { databaseKinds, useTestBed, type TestBed } from '../setup/test-bed';
import { captureConsole } from '../helpers/console-capture';
import { testPatient } from '../helpers/patient';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const at = (iso: string) => new Date(iso);

const patient = { ...testPatient, email: 'erika.mustermann@example.org' };

/** Every row of every table in the database (all schemas but the system's), as text. */
async function everyTableAsText(t: TestBed): Promise<{ tables: string[]; text: string }> {
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

/** An email port that records what it would send, optionally failing, or waiting for `before` on its first send. */
function recordingSender(options: { before?: () => Promise<void>; fail?: boolean } = {}) {
  const sent: EmailMessage[] = [];
  let first = true;
  const sender: EmailSender = {
    kind: 'outbox',
    async send(message) {
      if (first && options.before) {
        first = false;
        await options.before();
      }
      if (options.fail) {
        const error = new Error('mail service down');
        error.name = 'PostmarkError';
        throw error;
      }
      sent.push(message);
      return { id: randomUUID() };
    },
  };
  return { sender, sent };
}

/**
 * One run of the reminder part of the scheduled job: the due reminders
 * queued in the email outbox, then the outbox's due messages sent through
 * `sender` (docs/decisions/035). `failed`: reminders no key opened, and
 * messages the sender refused.
 */
async function sendDueReminders(db: TestBed['db'], options: { sender: EmailSender; siteUrl: string; keys: KeyRing | null; now: Date; batchSize?: number }) {
  // What the booking's answer left running (its own emails) has finished first.
  await settled();
  const queued = await queueDueReminders(db, options);
  const delivered = await deliverQueued(db, { sender: options.sender, keys: options.keys, now: options.now, batchSize: options.batchSize });
  return { sent: delivered.sent, expired: queued.expired, failed: queued.failed + delivered.retrying + delivered.failed };
}

describe.each(databaseKinds)('appointment contact and reminders on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'reminders-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example', DATABASE_POOL_SIZE: '10' } });
  let checkUp: string;
  const logs: string[] = [];

  beforeAll(async () => {
    const type = await addBookableType(
      t.db,
      { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 3 },
      { start: '08:00', end: '18:00' },
    );
    checkUp = type.id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await t.db.delete(bookedSlots);
    // A patient's own cancellation leaves a tombstone too (docs/decisions/029-wizard-keeps-its-place-cancel-asks-once.md): start every test without any.
    await t.db.delete(cancelledBookings);
    // Each test books as the same patient from one address: start every test under the abuse limits.
    await t.db.delete(rateLimits);
    await settled();
    // Messages earlier tests queued are theirs.
    await t.db.delete(emailOutbox);
    await rm(t.outbox, { recursive: true, force: true });
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
  const contactRows = () => t.db.select().from(appointmentContacts);
  /** Contacts with a reminder still to send. */
  const reminderRows = async () => (await contactRows()).filter((r) => r.remindAt !== null);
  const tokenFromOutbox = async (email: string) => {
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === email && /Terminbestätigung|confirmation/.test(m.subject))!;
    return /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
  };
  const runFunction = async () => {
    await settled();
    const response = await sendReminders();
    expect(response.status).toBe(200);
    const json = (await response.json()) as { queued: number; expired: number; failed: number; delivery: { sent: number } };
    // Queued and sent in the same run (docs/decisions/035); the booking's own emails went right after its answer.
    return { sent: json.delivery.sent, expired: json.expired, failed: json.failed };
  };

  it('every online booking keeps one sealed contact; without the tick it has no reminder time', async () => {
    const res = await book();
    expect(res.status).toBe(201);
    expect((await book({ appointment_time: '09:20', reminder: false })).status).toBe(201);
    const rows = await contactRows();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.reminder === false && r.remindAt === null)).toBe(true);
    const ring = await dataKeyRing();
    const row = rows.find((r) => r.bookingId === res.json.booking.id)!;
    expect(open({ keyId: row.keyId, sealed: row.sealed }, row.bookingId, ring)).toMatchObject({ email: patient.email, firstName: 'Erika', lastName: 'Mustermann', language: 'de' });
    expect(await reminderRows()).toHaveLength(0);
  });

  it('the contact is written by the booking\'s own statement: a booking refused for any reason leaves no contact', async () => {
    expect((await book()).status).toBe(201);
    // The same time again (capacity 3, so fill it), a blocked-out time, and bad input.
    expect((await book({ email: 'b@example.org' })).status).toBe(201);
    expect((await book({ email: 'c@example.org' })).status).toBe(201);
    expect((await book({ email: 'd@example.org' })).status).toBe(409);
    expect((await book({ appointment_time: '09:05' })).status).toBe(409);
    expect((await book({ email: 'not an address' })).status).toBe(400);
    const bookings = await t.db.select().from(bookedSlots);
    const contacts = await contactRows();
    expect(contacts.map((c) => c.bookingId).sort()).toEqual(bookings.map((b) => b.id).sort());
  });

  it('stores and logs nothing the patient entered in clear: every table and the log, after booking and sending', async () => {
    const values = { first_name: 'Zerberus', last_name: 'Quastenflosser', phone: '0211 98765432', email: 'zq@example.org', birth_date: '1971-02-03' };
    expect((await book({ ...values, reminder: true })).status).toBe(201);
    const token = await tokenFromOutbox('zq@example.org');
    const secrets = ['Zerberus', 'Quastenflosser', '98765432', 'zq@example.org', '1971-02-03', '03.02.1971', token];
    const afterBooking = await everyTableAsText(t);
    expect(afterBooking.tables).toEqual(expect.arrayContaining(['"public"."appointment_contacts"', '"public"."booked_slots"']));
    expect(afterBooking.text).toContain('"sealed"'); // the contact row is in the dump
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
    expect(logs.join('\n')).toContain('reminders: 1 queued');
    expect(logs.join('\n')).toContain('emails: 1 sent');
  });

  it('answers 400 naming reminder for a non-boolean, and stores nothing', async () => {
    const res = await book({ reminder: 'yes' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    expect(res.json.errors).toEqual({ reminder: ['errors.reminderInvalid'] });
    expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
  });

  it('in production without DATA_ENCRYPTION_KEY, every online booking is 503 not-configured and nothing is stored', async () => {
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
      const res = await book();
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
    expect(await contactRows()).toHaveLength(0);
  });

  it('makes no reminder when the send time has already passed (booked less than 24 hours ahead)', async () => {
    // Today 10:00: its send time was yesterday; the confirmation has just gone.
    expect((await book({ appointment_date: '2030-01-07', appointment_time: '10:00', reminder: true })).status).toBe(201);
    expect(await reminderRows()).toHaveLength(0);
  });

  it('the scheduled function runs every minute (the waitlist offers go within a minute), sends the due reminder once in German and deletes it', async () => {
    expect(sendRemindersConfig).toEqual({ schedule: '* * * * *' });
    expect((await book({ reminder: true })).status).toBe(201);
    const token = await tokenFromOutbox(patient.email);
    vi.setSystemTime(at('2030-01-08T07:59:00Z'));
    expect(await runFunction()).toEqual({ sent: 0, expired: 0, failed: 0 });
    expect(await reminderRows()).toHaveLength(1);
    vi.setSystemTime(at('2030-01-08T08:00:00Z'));
    expect(await runFunction()).toEqual({ sent: 1, expired: 0, failed: 0 });
    expect(await reminderRows()).toHaveLength(0);
    expect(await runFunction()).toEqual({ sent: 0, expired: 0, failed: 0 });
    const mails = (await readOutbox(t.outbox)).filter((m) => m.subject.startsWith('Erinnerung'));
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
    const mail = (await readOutbox(t.outbox)).find((m) => m.subject.startsWith('Reminder'))!;
    expect(mail.subject).toBe('Reminder: Health check on Wed 9 Jan 2030 at 09:00');
    expect(mail.text).toContain('Wednesday, 9 January 2030');
    expect(mail.text).toMatch(/https:\/\/praxis\.example\/en\/termin\/absagen\?token=/);
  });

  it('deletes the contact when the patient cancels', async () => {
    expect((await book({ reminder: true })).status).toBe(201);
    const token = await tokenFromOutbox(patient.email);
    expect(await contactRows()).toHaveLength(1);
    const res = await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } });
    expect(res.status).toBe(200);
    expect(await contactRows()).toHaveLength(0);
  });

  it('deletes the contact when the practice cancels the booking, and leaves a tombstone without it', async () => {
    const res = await book({ reminder: true });
    await t.db.transaction(async (tx) => {
      const booking = await findById(tx, res.json.booking.id, true);
      await cancelLockedAsPractice(tx, booking!, await dataKeyRing());
    });
    expect(await contactRows()).toHaveLength(0);
    expect(await t.db.select().from(cancelledBookings)).toHaveLength(1);
  });

  it('a begun appointment gets no reminder; its contact stays through its Berlin day (also once it has ended), then the purge deletes it', async () => {
    expect((await book({ reminder: true })).status).toBe(201);
    vi.setSystemTime(at('2030-01-09T08:00:00Z')); // 09:00 in Berlin: begun
    expect(await runFunction()).toEqual({ sent: 0, expired: 1, failed: 0 });
    expect(await reminderRows()).toHaveLength(0);
    expect(await contactRows()).toHaveLength(1);
    expect((await readOutbox(t.outbox)).filter((m) => m.subject.startsWith('Erinnerung'))).toHaveLength(0);
    // 09:20: the 20-minute appointment has ended, but reception still needs the day's names; 23:59:59 too.
    expect(await purgeEnded(t.db, at('2030-01-09T08:20:00Z'))).toMatchObject({ contacts: 0 });
    expect(await purgeEnded(t.db, at('2030-01-09T22:59:59Z'))).toMatchObject({ contacts: 0 });
    // Berlin midnight: the day has ended.
    expect(await purgeEnded(t.db, at('2030-01-09T23:00:00Z'))).toMatchObject({ contacts: 1 });
    expect(await contactRows()).toHaveLength(0);
    // The booking itself stays (no patient data in it).
    expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
  });

  it('the purge deletes the contacts of every past day, also those no configured key opens, and nothing else', async () => {
    // Tuesday 09:00 and 10:00 (one sealed under a key that is no longer configured), Wednesday 09:00.
    const ended = await book({ appointment_date: '2030-01-08' });
    const later = await book({ appointment_date: '2030-01-09' });
    const lost = await book({ appointment_date: '2030-01-08', appointment_time: '10:00', email: 'lost@example.org' });
    const foreign = parseKeyRing(Buffer.alloc(32, 9).toString('hex'));
    const { seal } = await import('../../src/server/appointment-contact/seal.server');
    const resealed = seal({ email: 'lost@example.org', firstName: 'L', lastName: 'X', language: 'de', token: 'T'.repeat(43), birthDate: '', phone: '' }, lost.json.booking.id, foreign);
    await t.db.update(appointmentContacts).set(resealed).where(eq(appointmentContacts.bookingId, lost.json.booking.id));
    expect((await purgeEnded(t.db, at('2030-01-08T09:20:00Z'))).contacts).toBe(0); // Tuesday 10:20 Berlin: still Tuesday
    const result = await purgeEnded(t.db, at('2030-01-08T23:00:00Z')); // Wednesday 00:00 Berlin
    expect(result.contacts).toBe(2);
    expect((await contactRows()).map((r) => r.bookingId)).toEqual([later.json.booking.id]);
    expect(ended.status).toBe(201);
  });

  it('a reminder the mail service refuses stays queued and goes on a later run, logging no address', async () => {
    expect((await book({ reminder: true })).status).toBe(201);
    const keys = await dataKeyRing();
    const now = at('2030-01-08T08:00:00Z');
    const failing = recordingSender({ fail: true });
    expect(await sendDueReminders(t.db, { sender: failing.sender, siteUrl: 'https://praxis.example', keys, now })).toEqual({ sent: 0, expired: 0, failed: 1 });
    // Queued once: the contact's reminder is done, the message waits in the outbox (docs/decisions/035).
    expect(await reminderRows()).toHaveLength(0);
    const [queued] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'reminder'));
    expect(queued).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: new Date(now.getTime() + 60_000) });
    expect(logs.join('\n')).toMatch(/email [0-9a-f-]+ \(reminder\) refused \(attempt 1\): PostmarkError/);
    expect(logs.join('\n')).not.toContain(patient.email);
    const working = recordingSender();
    // Not before its time; then once.
    expect(await sendDueReminders(t.db, { sender: working.sender, siteUrl: 'https://praxis.example', keys, now })).toEqual({ sent: 0, expired: 0, failed: 0 });
    const later = new Date(now.getTime() + 60_000);
    expect(await sendDueReminders(t.db, { sender: working.sender, siteUrl: 'https://praxis.example', keys, now: later })).toEqual({ sent: 1, expired: 0, failed: 0 });
    expect(working.sent.map((m) => m.to)).toEqual([patient.email]);
    expect(await sendDueReminders(t.db, { sender: working.sender, siteUrl: 'https://praxis.example', keys, now: later })).toEqual({ sent: 0, expired: 0, failed: 0 });
  });

  it('a row sealed with a key that is no longer configured waits, and opens again once the key is back (rotation)', async () => {
    const oldRing = await dataKeyRing(); // the local key file's key
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

  describe('followMove (every move)', () => {
    it('moves the send time with the booking; the old time sends nothing, the new one does', async () => {
      const res = await book({ reminder: true });
      const id = res.json.booking.id as string;
      // The move itself is the reschedule's; here the booking is moved by hand and the reminder follows.
      await t.db.update(bookedSlots).set({ appointmentDate: '2030-01-11', appointmentTime: '10:20' }).where(eq(bookedSlots.id, id));
      await followMove(t.db, id, '2030-01-11', '10:20', NOW);
      expect((await reminderRows())[0]!.remindAt!.toISOString()).toBe('2030-01-10T09:20:00.000Z');
      vi.setSystemTime(at('2030-01-08T08:00:00Z'));
      expect((await runFunction()).sent).toBe(0);
      vi.setSystemTime(at('2030-01-10T09:20:00Z'));
      expect((await runFunction()).sent).toBe(1);
      const mail = (await readOutbox(t.outbox)).find((m) => m.subject.startsWith('Erinnerung'))!;
      expect(mail.subject).toBe('Erinnerung: Check-up am 11.01.2030 um 10:20');
    });

    it('a reminder already sent is scheduled again for a new time more than 24 hours away', async () => {
      const res = await book({ reminder: true });
      const id = res.json.booking.id as string;
      vi.setSystemTime(at('2030-01-08T08:00:00Z'));
      expect((await runFunction()).sent).toBe(1);
      expect(await reminderRows()).toHaveLength(0);
      await followMove(t.db, id, '2030-01-11', '10:20', at('2030-01-08T08:00:00Z'));
      expect((await reminderRows())[0]!.remindAt!.toISOString()).toBe('2030-01-10T09:20:00.000Z');
    });

    it('no reminder when the new time is less than 24 hours ahead, or when none was wanted', async () => {
      const res = await book({ reminder: true });
      await followMove(t.db, res.json.booking.id, '2030-01-07', '16:00', NOW);
      expect(await reminderRows()).toHaveLength(0);
      const plain = await book({ appointment_time: '11:00' });
      await followMove(t.db, plain.json.booking.id, '2030-01-11', '10:20', NOW);
      expect(await reminderRows()).toHaveLength(0);
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
    const keys = await dataKeyRing();
    const now = at('2030-01-08T12:00:00Z');
    // On Postgres each run holds its first reminder until the other run is
    // sending too: both really work side by side, each on rows the other
    // skipped (PGlite runs one transaction at a time, so there they take turns).
    let arrived = 0;
    let bothSending!: () => void;
    const both = new Promise<void>((resolve) => (bothSending = resolve));
    const barrier =
      kind === 'postgres'
        ? {
            before: async () => {
              if (++arrived === 2) bothSending();
              await both;
            },
          }
        : {};
    const a = recordingSender(barrier);
    const b = recordingSender(barrier);
    const [ra, rb] = await Promise.all([
      sendDueReminders(t.db, { sender: a.sender, siteUrl: 'https://praxis.example', keys, now, batchSize: 4 }),
      sendDueReminders(t.db, { sender: b.sender, siteUrl: 'https://praxis.example', keys, now, batchSize: 4 }),
    ]);
    const addresses = [...a.sent, ...b.sent].map((m) => m.to).sort();
    expect(addresses).toEqual(Array.from({ length: count }, (_, i) => `p${i}@example.org`).sort());
    expect(ra.sent + rb.sent).toBe(count);
    if (kind === 'postgres') {
      expect(ra.sent).toBeGreaterThan(0);
      expect(rb.sent).toBeGreaterThan(0);
    }
    expect(await reminderRows()).toHaveLength(0);
  });
});

/**
 * The email outbox (docs/decisions/035-email-outbox.md) through the real
 * handlers, on both drivers, with a fake clock: the mail service down for
 * ten minutes loses nothing and sends nothing twice while bookings answer
 * without waiting for it; a message is given up after 24 hours and its
 * booking asks for a call; two delivery runs at once never send a message
 * twice; a process that dies between sending and marking sends at most one
 * duplicate and says so; bodies are deleted 7 days after sending.
 *
 * The mail service is a stand-in for Postmark's API behind the global
 * fetch the Postmark client uses.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import bookings from '../../netlify/functions/bookings';
import { bookedSlots, emailOutbox, rateLimits } from '../../db/schema';
import { listBookedSlots } from '../../src/server/admin/booked-slots.server';
import { dataKeyRing } from '../../src/server/appointment-contact/keys.server';
import { deliverQueued, GIVE_UP_AFTER_MS, LEASE_MS, purgeOutbox, runDelivery } from '../../src/server/email/delivery.server';
import type { EmailMessage, EmailSender } from '../../src/server/email/port.server';
import { enqueueEmails } from '../../src/server/email/queue.server';
import { captureConsole } from '../helpers/console-capture';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { bookingRequest } from '../helpers/patient';
import { databaseKinds, useTestBed, type TestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const MINUTE = 60_000;

interface Accepted {
  id: string;
  to: string;
  subject: string;
}

/**
 * Postmark's API as the client sees it: refuses (503) until `refuseUntil`
 * on the fake clock; while `hold` is set every request waits until released.
 */
function mailStandIn() {
  const state = { refuseUntil: 0, hold: false, inFlight: 0, accepted: [] as Accepted[], refused: 0 };
  const waiting: Array<() => void> = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (!url.startsWith('https://api.postmarkapp.com/')) throw new Error(`unexpected request to ${url}`);
    state.inFlight++;
    try {
      if (state.hold) await new Promise<void>((resolve) => waiting.push(resolve));
      if (Date.now() < state.refuseUntil) {
        state.refused++;
        return new Response(JSON.stringify({ ErrorCode: 0, Message: 'Service unavailable' }), { status: 503, headers: { 'content-type': 'application/json' } });
      }
      const body = JSON.parse(String(init?.body)) as { To: string; Subject: string };
      const id = randomUUID();
      state.accepted.push({ id, to: body.To, subject: body.Subject });
      return Response.json({ To: body.To, SubmittedAt: new Date().toISOString(), MessageID: id, ErrorCode: 0, Message: 'OK' });
    } finally {
      state.inFlight--;
    }
  });
  return {
    state,
    release() {
      state.hold = false;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

async function outboxRows(t: TestBed) {
  return t.db.select().from(emailOutbox).orderBy(emailOutbox.createdAt, emailOutbox.kind);
}

describe.each(databaseKinds)('email outbox on %s', (kind) => {
  const t = useTestBed({
    database: kind,
    now: NOW,
    dataDir: 'email-outbox-',
    env: { SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example', POSTMARK_SERVER_TOKEN: 'stand-in-token' },
  });
  let typeId: string;
  const logs: string[] = [];

  beforeAll(async () => {
    typeId = (await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 30, maxSlotsPerTime: 10 })).id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await t.db.delete(emailOutbox);
    await t.db.delete(bookedSlots);
    await t.db.delete(rateLimits);
    captureConsole(logs);
    return () => {
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    };
  });

  const book = (i: number) =>
    call(bookings, '/api/bookings', {
      method: 'POST',
      ip: `198.51.100.${i + 1}`,
      body: bookingRequest(typeId, '2030-01-09', '09:00', { email: `patient${i}@example.org` }),
    });

  it('the mail service down for 10 minutes: bookings answer 201 without waiting for it; then every message goes out exactly once', async () => {
    const mail = mailStandIn();
    mail.state.refuseUntil = NOW.getTime() + 10 * MINUTE;
    mail.state.hold = true;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await book(i));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(answers.map((a) => a.json.email)).toEqual([{ success: true }, { success: true }, { success: true }]);
    // The mail service hangs until released, so the answers did not wait for
    // it; the delivery that follows each answer reaches it (on a busy machine
    // a little after the answers) and hangs there.
    await vi.waitFor(() => expect(mail.state.inFlight).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    mail.release();
    await settled();
    const queued = await outboxRows(t);
    expect(queued).toHaveLength(6);
    expect(queued.every((r) => r.status === 'pending' && r.attempts >= 1)).toBe(true);
    expect(mail.state.accepted).toEqual([]);

    // The every-minute job for 40 minutes: refused until minute 10, then each message once.
    for (let minute = 1; minute <= 40; minute++) {
      vi.setSystemTime(NOW.getTime() + minute * MINUTE);
      await runDelivery();
    }
    const sent = await outboxRows(t);
    expect(sent.map((r) => r.status)).toEqual(Array(6).fill('sent'));
    expect(mail.state.accepted).toHaveLength(6);
    expect(new Set(mail.state.accepted.map((m) => m.id)).size).toBe(6);
    expect(sent.map((r) => r.providerId).sort()).toEqual(mail.state.accepted.map((m) => m.id).sort());
    expect(mail.state.accepted.map((m) => m.to).sort()).toEqual(
      ['patient0@example.org', 'patient1@example.org', 'patient2@example.org', 'team@praxis.example', 'team@praxis.example', 'team@praxis.example'],
    );
    // Backoff: tried at 0, 1, 6 and 21 minutes (1, 5, 15 minutes apart); the 4th try, after the outage, went through.
    expect(sent.map((r) => r.attempts)).toEqual(Array(6).fill(4));
    expect(mail.state.refused).toBe(18);
    // Logged by kind, never an address or a subject.
    expect(logs.join('\n')).toMatch(/refused \(attempt 1\): ServiceUnavailablerError/);
    expect(logs.join('\n')).not.toMatch(/patient\d@example\.org|team@praxis/);
    // The bookings were never touched by the outage.
    expect(await listBookedSlots(t.db)).toEqual(
      expect.arrayContaining([expect.objectContaining({ needs_call: false, practice_notified: true, patient_notice: 'sent' })]),
    );
  });

  it('a message refused for 24 hours is given up: the patient\'s booking asks for a call, the practice\'s is marked not notified', async () => {
    const mail = mailStandIn();
    mail.state.refuseUntil = Number.MAX_SAFE_INTEGER;
    expect((await book(7)).status).toBe(201);
    await settled();
    for (let hour = 1; hour <= 25; hour++) {
      vi.setSystemTime(NOW.getTime() + hour * 60 * MINUTE);
      await runDelivery();
    }
    const rows = await outboxRows(t);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ['booking-confirmation', 'failed'],
      ['practice-booking', 'failed'],
    ]);
    // Tried at once, then every hour here: the 25th try's next one would lie beyond 24 hours.
    expect(rows[0]!.attempts).toBe(25);
    const [booking] = await listBookedSlots(t.db);
    expect(booking).toMatchObject({ needs_call: true, patient_notice: 'failed', practice_notified: false });
    // Nothing more is tried.
    vi.setSystemTime(NOW.getTime() + GIVE_UP_AFTER_MS * 2);
    const before = mail.state.refused;
    await runDelivery();
    expect(mail.state.refused).toBe(before);
  });

  it('two delivery runs at once send every message exactly once', async () => {
    const keys = await dataKeyRing();
    const count = 30;
    await enqueueEmails(
      t.db,
      Array.from({ length: count }, (_, i) => ({
        message: { to: `p${i}@example.org`, subject: `Nachricht ${i}`, html: '<p>x</p>', text: 'x' },
        kind: 'test-message',
        audience: 'patient' as const,
      })),
      keys,
    );
    // On Postgres each run holds its messages until the other run is
    // sending too: both really work side by side, each on rows the other
    // skipped (PGlite runs one transaction at a time, so there they take turns).
    // A run sends a batch's messages in parallel, so it counts as arrived once,
    // with its first message, however many of its sends are waiting.
    let arrived = 0;
    let bothSending!: () => void;
    const both = new Promise<void>((resolve) => (bothSending = resolve));
    const recording = () => {
      const sent: EmailMessage[] = [];
      let here = false;
      const sender: EmailSender = {
        kind: 'outbox',
        async send(message) {
          if (kind === 'postgres') {
            if (!here && ++arrived === 2) bothSending();
            here = true;
            await both;
          }
          sent.push(message);
          return { id: randomUUID() };
        },
      };
      return { sent, sender };
    };
    const a = recording();
    const b = recording();
    const [ra, rb] = await Promise.all([
      deliverQueued(t.db, { sender: a.sender, keys, batchSize: 4 }),
      deliverQueued(t.db, { sender: b.sender, keys, batchSize: 4 }),
    ]);
    const addresses = [...a.sent, ...b.sent].map((m) => m.to).sort();
    expect(addresses).toEqual(Array.from({ length: count }, (_, i) => `p${i}@example.org`).sort());
    expect(ra.sent + rb.sent).toBe(count);
    if (kind === 'postgres') {
      expect(ra.sent).toBeGreaterThan(0);
      expect(rb.sent).toBeGreaterThan(0);
    }
    expect((await outboxRows(t)).every((r) => r.status === 'sent')).toBe(true);
  });

  it('a run that dies between sending and marking: the lease runs out, the message goes once more (logged), then never again', async () => {
    const keys = await dataKeyRing();
    const [id] = await enqueueEmails(t.db, [{ message: { to: 'p@example.org', subject: 'Termin', html: '<p>x</p>', text: 'x' }, kind: 'test-message', audience: 'patient' }], keys);
    const sends: string[] = [];
    // The first run hands the message over, then its process "dies": the send never returns.
    const dying: EmailSender = { kind: 'outbox', send: (m) => (sends.push(m.to), new Promise(() => {})) };
    void deliverQueued(t.db, { sender: dying, keys });
    await vi.waitFor(() => expect(sends).toHaveLength(1));
    const working: EmailSender = { kind: 'outbox', send: async (m) => (sends.push(m.to), { id: randomUUID() }) };
    // While the lease holds, nobody takes it.
    vi.setSystemTime(NOW.getTime() + LEASE_MS - 1000);
    expect(await deliverQueued(t.db, { sender: working, keys })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    vi.setSystemTime(NOW.getTime() + LEASE_MS + 1000);
    expect(await deliverQueued(t.db, { sender: working, keys })).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(logs.join('\n')).toContain(`email ${id} (test-message): an earlier attempt did not finish; it may arrive twice`);
    vi.setSystemTime(NOW.getTime() + 10 * LEASE_MS);
    expect(await deliverQueued(t.db, { sender: working, keys })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(sends).toEqual(['p@example.org', 'p@example.org']);
  });

  it('bodies are deleted 7 days after sending; id, kind, status and the provider id stay with the booking', async () => {
    const mail = mailStandIn();
    expect((await book(3)).status).toBe(201);
    await settled();
    expect(mail.state.accepted).toHaveLength(2);
    vi.setSystemTime(NOW.getTime() + 7 * 24 * 60 * MINUTE - MINUTE);
    expect(await purgeOutbox(t.db)).toEqual({ bodies: 0, rows: 0 });
    vi.setSystemTime(NOW.getTime() + 7 * 24 * 60 * MINUTE + MINUTE);
    expect(await purgeOutbox(t.db)).toEqual({ bodies: 2, rows: 0 });
    const rows = await outboxRows(t);
    expect(rows.map((r) => ({ kind: r.kind, status: r.status, sealed: r.sealed, keyId: r.keyId, provider: !!r.providerId }))).toEqual([
      { kind: 'booking-confirmation', status: 'sent', sealed: null, keyId: null, provider: true },
      { kind: 'practice-booking', status: 'sent', sealed: null, keyId: null, provider: true },
    ]);
    // Once the booking is gone, so are its messages' rows.
    await t.db.delete(bookedSlots);
    expect(await purgeOutbox(t.db)).toEqual({ bodies: 0, rows: 2 });
  });

  it('queued bodies are sealed: no address, subject or name in clear in the table', async () => {
    const mail = mailStandIn();
    mail.state.hold = true;
    expect((await book(4)).status).toBe(201);
    const text = JSON.stringify(await t.db.execute(sql`select * from email_outbox`));
    mail.release();
    await settled();
    expect(text).toContain('booking-confirmation');
    for (const value of ['patient4@example.org', 'Erika', 'Mustermann', 'Terminbestätigung', 'team@praxis.example']) expect(text).not.toContain(value);
  });
});

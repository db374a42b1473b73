/**
 * Operations alerts (docs/decisions/045-operations.md), on both drivers,
 * with a frozen clock moved by hand: the owner (ALERT_EMAIL) and the admins
 * who opted in are emailed when the job stops (noticed by the next
 * request), when the outbox is stuck, when the data key opens nothing and
 * when the practice's address bounces; at most once per kind per hour,
 * once more when it is over, never for an episode nobody was told of; and
 * nothing is written while nothing changes. The every-minute job writes its
 * heartbeat and log line even when one of its steps throws.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { emailOutbox, users } from '../../db/schema';
import appointmentTypes from '../../netlify/functions/appointment-types';
import { parseKeyRing } from '../../src/server/appointment-contact/keys.server';
import * as waitlistSweep from '../../src/server/waitlist/sweep.server';
import { prepareEmail } from '../../src/server/email/queue.server';
import { checkAlertsFromJob } from '../../src/server/operations/alerts.server';
import { readHeartbeat, writeHeartbeat } from '../../src/server/operations/heartbeat.server';
import { logLinesTo } from '../../src/server/operations/request-log.server';
import { expectScheduledJob } from '../../src/server/operations/watch.server';
import { runScheduledJob } from '../../src/server/scheduled-job.server';
import { createAdmin } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { smsFiles } from '../helpers/sms-files';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed, type TestBed } from '../setup/test-bed';

const START = new Date('2030-05-06T08:00:00Z');
const KEY = randomBytes(32).toString('hex');
const OWNER = 'inhaberin@praxis.example';

const minutes = (n: number) => n * 60_000;

async function alertsSent(t: TestBed) {
  const mails = await readOutbox(t.outbox);
  await rm(t.outbox, { recursive: true, force: true });
  return mails.map((m) => ({ to: m.addresses.to.map((a) => a.address).join(','), subject: m.subject, text: m.text }));
}

async function queueStuck(t: TestBed, createdAt: Date, overrides: Partial<typeof emailOutbox.$inferInsert> = {}) {
  const prepared = prepareEmail({ message: { to: 'patient@example.org', subject: 's', text: 't', html: '<p>t</p>' }, kind: 'booking-confirmation', audience: 'patient' }, parseKeyRing(KEY));
  await t.db.insert(emailOutbox).values({ ...prepared, createdAt, nextAttemptAt: new Date(createdAt.getTime() + minutes(60)), attempts: 4, ...overrides });
  return prepared.id;
}

const alertRows = async (t: TestBed) =>
  (await t.db.execute(sql`select row_to_json(a)::text as j from operations_alerts a order by kind`)) as unknown as { rows: Array<{ j: string }> };

describe.each(databaseKinds)('operations alerts on %s', (kind) => {
  const t = useTestBed({
    database: kind,
    now: START,
    dataDir: 'alerts-',
    env: { DATA_ENCRYPTION_KEY: KEY, ALERT_EMAIL: `Praxisinhaberin <${OWNER}>`, PRACTICE_EMAIL: 'praxis@praxis.example', SITE_URL: 'https://praxis.example' },
  });
  let optedIn: string;

  beforeAll(async () => {
    const a = await createAdmin(t.db, { email: 'aerztin@praxis.example' });
    await createAdmin(t.db, { email: 'empfang@praxis.example' });
    await t.db.update(users).set({ operationsAlerts: true }).where(eq(users.id, a.id));
    optedIn = a.email;
  });
  beforeEach(async () => {
    vi.setSystemTime(START);
    await t.db.delete(emailOutbox);
    await t.db.execute(sql`update operations_alerts set since = null, alerted_at = null, episode_alerted = false, cleared_at = null`);
    await writeHeartbeat(t.db, { ranAt: START, outcome: 'ok', failedSteps: [], durationMs: 1 });
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
  });
  afterEach(() => {
    expectScheduledJob(null);
    logLinesTo(undefined);
    vi.restoreAllMocks();
  });
  afterAll(() => expectScheduledJob(null));

  const request = async () => {
    expect((await call(appointmentTypes, '/api/appointment-types')).status).toBe(200);
    await settled();
  };

  it('a stopped job is noticed by the next request: the owner and the opted-in admin are told, once an hour, and once when it runs again', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    expectScheduledJob(true);
    // 4 minutes without a run: not yet.
    vi.setSystemTime(new Date(START.getTime() + minutes(4)));
    await request();
    expect(await alertsSent(t)).toEqual([]);

    // 6 minutes: the next request (a minute later, past the per-process pause) tells both.
    vi.setSystemTime(new Date(START.getTime() + minutes(6)));
    await request();
    const first = await alertsSent(t);
    expect(first.map((m) => m.to).sort()).toEqual([optedIn, OWNER].sort());
    expect(first[0]!.subject).toMatch(/^Störung: Die minütliche Aufgabe läuft nicht/);
    expect(first[0]!.text).toContain('https://praxis.example/admin/system');
    expect(first.map((m) => m.to)).not.toContain('empfang@praxis.example');

    // Within the process's minute: no look at all; later in the hour: looked, but no second alert.
    await request();
    vi.setSystemTime(new Date(START.getTime() + minutes(40)));
    await request();
    expect(await alertsSent(t)).toEqual([]);

    // An hour after the first: once more.
    vi.setSystemTime(new Date(START.getTime() + minutes(67)));
    await request();
    const again = await alertsSent(t);
    expect(again).toHaveLength(2);
    expect(again[0]!.subject).toMatch(/^Störung besteht weiter: Die minütliche Aufgabe läuft nicht/);

    // The job runs again: "wieder in Ordnung", once.
    vi.setSystemTime(new Date(START.getTime() + minutes(70)));
    await runScheduledJob(new Date());
    const recovered = await alertsSent(t);
    expect(recovered.map((m) => m.subject)).toEqual([expect.stringMatching(/^Wieder in Ordnung: Die minütliche Aufgabe läuft nicht/), expect.stringMatching(/^Wieder in Ordnung/)]);
    await runScheduledJob(new Date(START.getTime() + minutes(71)));
    expect(await alertsSent(t)).toEqual([]);
    expect(info.mock.calls.flat().join('\n')).toMatch(/operations alert: job alert/);
  });

  it('a stuck outbox: alert, recovery, a flap within the hour stays silent (and ends silently), the next hour alerts again', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const now = (m: number) => new Date(START.getTime() + minutes(m));
    const stuck = await queueStuck(t, now(-20));
    expect(await checkAlertsFromJob(t.db, now(0))).toEqual([{ kind: 'outbox', message: 'alert' }]);
    expect((await alertsSent(t)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Störung: Nachrichten bleiben im Postausgang liegen/), expect.anything()]);

    await t.db.update(emailOutbox).set({ status: 'sent', sentAt: now(5) }).where(eq(emailOutbox.id, stuck));
    expect(await checkAlertsFromJob(t.db, now(5))).toEqual([{ kind: 'outbox', message: 'recovery' }]);
    await alertsSent(t);

    const again = await queueStuck(t, now(-10));
    expect(await checkAlertsFromJob(t.db, now(10))).toEqual([]);
    await t.db.update(emailOutbox).set({ status: 'sent', sentAt: now(20) }).where(eq(emailOutbox.id, again));
    expect(await checkAlertsFromJob(t.db, now(20))).toEqual([]);
    expect(await alertsSent(t)).toEqual([]);

    await queueStuck(t, now(45));
    expect(await checkAlertsFromJob(t.db, now(61))).toEqual([{ kind: 'outbox', message: 'alert' }]);
    expect(await alertsSent(t)).toHaveLength(2);
  });

  it("emails stuck: the owner's mobile (ALERT_SMS) gets the alert and the all-clear by SMS, not the hourly reminder; a stopped job goes by email only", async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    vi.stubEnv('ALERT_SMS', '+491701234567');
    try {
      const now = (m: number) => new Date(START.getTime() + minutes(m));
      const stuck = await queueStuck(t, now(-20));
      expect(await checkAlertsFromJob(t.db, now(0))).toEqual([{ kind: 'outbox', message: 'alert' }]);
      const first = await smsFiles(t.outbox);
      expect(first).toHaveLength(1);
      expect(first[0]!.to).toBe('+491701234567');
      expect(first[0]!.text).toMatch(/^Störung: Nachrichten bleiben im Postausgang liegen/);
      expect(first[0]!.text).toContain('https://praxis.example/admin/system');
      expect(first[0]!.text.length).toBeLessThanOrEqual(306);
      expect(first[0]!.text).not.toContain('patient@example.org');
      const [row] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.channel, 'sms'));
      expect(row).toMatchObject({ audience: 'staff', kind: 'operations-alert', status: 'sent', bookingId: null });
      await alertsSent(t);

      // An hour on, still stuck: the reminder is an email only.
      expect(await checkAlertsFromJob(t.db, now(61))).toEqual([{ kind: 'outbox', message: 'reminder' }]);
      expect(await smsFiles(t.outbox)).toEqual([]);
      expect(await alertsSent(t)).toHaveLength(2);

      await t.db.update(emailOutbox).set({ status: 'sent', sentAt: now(62) }).where(eq(emailOutbox.id, stuck));
      expect(await checkAlertsFromJob(t.db, now(62))).toEqual([{ kind: 'outbox', message: 'recovery' }]);
      expect((await smsFiles(t.outbox)).map((m) => m.text)).toEqual([expect.stringMatching(/^Wieder in Ordnung: Nachrichten bleiben im Postausgang liegen/)]);
      await alertsSent(t);

      // A stopped job is told by email: email works.
      expect(await checkAlertsFromJob(t.db, now(63))).toEqual([]);
      await writeHeartbeat(t.db, { ranAt: now(50), outcome: 'ok', failedSteps: [], durationMs: 1 });
      expectScheduledJob(true);
      vi.setSystemTime(now(64));
      await request();
      expect((await alertsSent(t)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Störung: Die minütliche Aufgabe/), expect.anything()]);
      expect(await smsFiles(t.outbox)).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('ALERT_SMS that is not a mobile number is skipped with a warning by name; the email still goes', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('ALERT_SMS', '+4921112345678');
    try {
      await queueStuck(t, new Date(START.getTime() - minutes(20)));
      expect(await checkAlertsFromJob(t.db, START)).toEqual([{ kind: 'outbox', message: 'alert' }]);
      expect(await smsFiles(t.outbox)).toEqual([]);
      expect(await alertsSent(t)).toHaveLength(2);
      expect(warn.mock.calls.flat().join('\n')).toContain('ALERT_SMS is not a mobile number');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('writes nothing while nothing changes', async () => {
    const before = (await alertRows(t)).rows;
    expect(await checkAlertsFromJob(t.db, START)).toEqual([]);
    expect((await alertRows(t)).rows).toEqual(before);
    expect(await t.db.select().from(emailOutbox)).toEqual([]);
  });

  it('a data key that opens nothing, and the practice address bouncing, each alert on their own', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const other = parseKeyRing(randomBytes(32).toString('hex'));
    const foreign = prepareEmail({ message: { to: 'p@example.org', subject: 's', text: 't', html: '<p>t</p>' }, kind: 'reminder', audience: 'patient' }, other);
    // A moment after the alert's own emails (sealed with the right key at START), so it stays the newest sealed row.
    await t.db.insert(emailOutbox).values({ ...foreign, status: 'sent', sentAt: START, createdAt: new Date(START.getTime() + 1) });
    expect(await checkAlertsFromJob(t.db, START)).toEqual([{ kind: 'keys', message: 'alert' }]);
    const keyMail = await alertsSent(t);
    expect(keyMail[0]!.subject).toMatch(/Datenschlüssel/);

    const practice = prepareEmail({ message: { to: 'praxis@praxis.example', subject: 's', text: 't', html: '<p>t</p>' }, kind: 'booking-practice', audience: 'practice' }, parseKeyRing(KEY));
    // Its body already deleted (as 7 days after sending): the newest sealed row is still the one no key opens.
    await t.db.insert(emailOutbox).values({ ...practice, keyId: null, sealed: null, status: 'bounced', sentAt: START, eventAt: START, createdAt: new Date(START.getTime() + 1000) });
    expect(await checkAlertsFromJob(t.db, new Date(START.getTime() + minutes(1)))).toEqual([{ kind: 'practice-mail', message: 'alert' }]);
    const bounceMail = await alertsSent(t);
    expect(bounceMail[0]!.subject).toMatch(/Praxis-Adresse nimmt keine E-Mails an/);
    // Nothing of a patient or an address in any alert.
    for (const mail of [...keyMail, ...bounceMail]) expect(mail.text).not.toMatch(/p@example\.org|praxis@praxis\.example/);
  });

  it('the job: each step runs though one before it threw; the heartbeat says which failed; one JSON line with counts; the run throws', async () => {
    const lines: string[] = [];
    logLinesTo((line) => lines.push(line));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const failure = new Error('Key (email)=(patient@example.org) already exists');
    failure.name = 'WaitlistBroke';
    vi.spyOn(waitlistSweep, 'runWaitlistJob').mockRejectedValue(failure);
    const at = new Date(START.getTime() + minutes(1));
    await expect(runScheduledJob(at)).rejects.toBe(failure);
    expect(await readHeartbeat(t.db)).toMatchObject({ ranAt: at, outcome: 'failed', failedSteps: ['waitlist'] });
    const line = JSON.parse(lines.find((l) => l.includes('"kind":"job"'))!);
    expect(line).toMatchObject({ kind: 'job', outcome: 'failed', failed_steps: ['waitlist'], counts: expect.objectContaining({ 'delivery.sent': 0 }) });
    expect(lines.join('\n')).not.toContain('patient@example.org');
  });
});

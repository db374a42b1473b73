/**
 * Patient requests (docs/decisions/036-patient-requests.md) through the
 * real handlers, on both drivers: each kind arrives (201 with a reference,
 * a receipt naming the kind and nothing asked for, the status link), the
 * status page, bad input that stores nothing, the limits, a switched-off
 * kind, the honeypot, the practice's notice at most every 15 minutes,
 * reception's queue (filters, oldest first, no-store, audited views) and
 * its status changes (emails, audit, 409 for a closed request), the same
 * request twice within 10 minutes as one (also when both arrive at once),
 * and the form without JavaScript: rendered with the practice's settings,
 * a post answered 303 to the received page (Post/Redirect/Get).
 */
import { rm } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import adminRequest from '../../netlify/functions/admin-request';
import adminRequests from '../../netlify/functions/admin-requests';
import adminSettings from '../../netlify/functions/admin-settings';
import requestForm from '../../netlify/functions/request-form';
import requests from '../../netlify/functions/requests';
import requestStatus from '../../netlify/functions/requests-status';
import sendReminders from '../../netlify/functions/send-reminders';
import { auditLog, patientRequests, practiceSettings, rateLimits } from '../../db/schema';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, createNonAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox, type ParsedEml } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { builtRequestPage } from '../helpers/request-page';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin: call-backs may be asked for Tue 8 … Mon 14 January.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const TOKEN = /token=([A-Za-z0-9_-]{43})/;

const person = { first_name: 'Erika', last_name: 'Mustermann', birth_date: '1964-08-12', consent: true, language: 'de' };
const prescription = {
  kind: 'prescription',
  insurance: 'statutory',
  delivery: 'card',
  card_read_this_quarter: true,
  medications: [
    { name: 'Ramipril', strength: '5 mg', pack: 'N3' },
    { name: 'Metformin', strength: '1000 mg' },
  ],
};
const referral = { kind: 'referral', specialty: 'Orthopädie', reason: 'Knieschmerzen seit Wochen' };
const callback = { kind: 'callback', phone: '0211 5550123', callback_date: '2030-01-09', daypart: 'morning', topic: 'Blutwerte besprechen' };
/** What was asked for: never in an email (but the practice's own message). */
const ASKED = ['Ramipril', 'Metformin', 'Orthopädie', 'Knieschmerzen', 'Blutwerte'];

describe.each(databaseKinds)('patient requests on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'requests-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const logs: string[] = [];
  let people = 0;

  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await settled();
    await t.db.delete(patientRequests);
    await t.db.delete(practiceSettings);
    await t.db.delete(rateLimits);
    await t.db.delete(auditLog);
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  /** A request of a new patient (own email and client address unless given). */
  async function ask(body: Record<string, unknown>, options: { ip?: string } = {}) {
    const n = ++people;
    const res = await call(requests, '/api/requests', { method: 'POST', body: { ...person, email: `patient-${n}@example.org`, ...body }, ip: options.ip ?? `10.0.1.${n % 250}` });
    await settled();
    return res;
  }

  const mails = async (): Promise<ParsedEml[]> => {
    await settled();
    return readOutbox(t.outbox);
  };
  const tokenOf = (mail: ParsedEml) => TOKEN.exec(mail.text)![1]!;
  const rows = () => t.db.select().from(patientRequests);

  describe('a request arrives', () => {
    it.each([
      ['prescription', prescription, 'Folgerezept'],
      ['referral', referral, 'Überweisung'],
      ['callback', callback, 'Rückruf'],
    ] as const)('%s: 201 with a reference; the receipt names the kind, the reference and the status link, nothing asked for', async (kindName, body, label) => {
      const res = await ask(body);
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ reference: expect.stringMatching(/^[2-9A-HJKMNP-Z]{6}$/) });
      const [row] = await rows();
      expect(row).toMatchObject({ kind: kindName, status: 'new', reference: res.json.reference, closedAt: null, purgedAt: null });
      const receipt = (await mails()).find((m) => m.headers.to === `patient-${people}@example.org`)!;
      expect(receipt.subject).toBe(`Ihre Anfrage ist eingegangen: ${label} (${res.json.reference})`);
      expect(receipt.text).toContain(`https://praxis.example/anfrage/status?token=`);
      expect(receipt.text).toContain(res.json.reference);
      for (const asked of ASKED) {
        expect(receipt.text).not.toContain(asked);
        expect(receipt.html).not.toContain(asked);
      }
    });

    it('writes the receipt in English to an English request, with the English status page', async () => {
      const res = await ask({ ...referral, language: 'en' });
      const receipt = (await mails()).find((m) => m.headers.to === `patient-${people}@example.org`)!;
      expect(receipt.subject).toBe(`We have received your request: Referral (${res.json.reference})`);
      expect(receipt.text).toMatch(/https:\/\/praxis\.example\/en\/request\/status\?token=[A-Za-z0-9_-]{43}/);
    });

    it('shows the status page: kind, reference, received, status; an unknown link is 404, a malformed one 400; the read writes nothing', async () => {
      const res = await ask(prescription);
      const token = tokenOf((await mails()).find((m) => m.headers.to === `patient-${people}@example.org`)!);
      const before = JSON.stringify(await rows());
      const status = await call(requestStatus, '/api/requests/status', { query: { token } });
      expect(status.status).toBe(200);
      expect(status.json).toEqual({ kind: 'prescription', reference: res.json.reference, received_at: NOW.toISOString(), status: 'new' });
      expect(JSON.stringify(await rows())).toBe(before);
      expect((await call(requestStatus, '/api/requests/status', { query: { token: 'A'.repeat(43) } })).status).toBe(404);
      expect(errorsOf(await call(requestStatus, '/api/requests/status', { query: { token: 'short' } }))).toEqual({ token: ['errors.tokenInvalid'] });
      // Only the token's SHA-256 is stored.
      expect(JSON.stringify(await rows())).not.toContain(token);
    });
  });

  describe('bad input: 400 naming the field, nothing stored', () => {
    it.each([
      ['a missing kind', { ...prescription, kind: undefined }, { kind: ['requests.errors.kindRequired'] }],
      ['e-prescription with private insurance', { ...prescription, insurance: 'private' }, { delivery: ['requests.errors.cardNeedsStatutory'] }],
      [
        'six medications',
        { ...prescription, medications: Array.from({ length: 6 }, (_, i) => ({ name: `Mittel ${i}` })) },
        { medications: ['requests.errors.medicationsTooMany'] },
      ],
      ['no medication', { ...prescription, medications: [] }, { medications: ['requests.errors.medicationsRequired'] }],
      ['a medication without a name', { ...prescription, medications: [{ name: ' ', strength: '5 mg' }] }, { 'medications.0.name': ['requests.errors.medicationName'] }],
      ['no delivery', { ...prescription, delivery: undefined }, { delivery: ['requests.errors.deliveryRequired'] }],
      ['a referral without specialty and reason', { kind: 'referral' }, { specialty: ['requests.errors.specialtyRequired'], reason: ['requests.errors.reasonRequired'] }],
      ['a call-back without a phone', { ...callback, phone: undefined }, { phone: ['requests.errors.phoneRequired'] }],
      ['a call-back on a Saturday', { ...callback, callback_date: '2030-01-12' }, { callback_date: ['requests.errors.callbackDateInvalid'] }],
      ['a call-back today', { ...callback, callback_date: '2030-01-07' }, { callback_date: ['requests.errors.callbackDateInvalid'] }],
      ['a call-back beyond five working days', { ...callback, callback_date: '2030-01-15' }, { callback_date: ['requests.errors.callbackDateInvalid'] }],
      ['a call-back without a part of day', { ...callback, daypart: 'evening' }, { daypart: ['requests.errors.daypartRequired'] }],
      ['no consent', { ...referral, consent: false }, { consent: ['requests.errors.consentRequired'] }],
      ['a birth date in the future', { ...referral, birth_date: '2031-01-01' }, { birth_date: ['requests.errors.birthDateFuture'] }],
      ['a name with a bidi override', { ...referral, first_name: 'Eri\u202eka' }, { first_name: ['requests.errors.invalidCharacters'] }],
      ['a topic with a control character', { ...callback, topic: 'Blut\u0007werte' }, { topic: ['requests.errors.invalidCharacters'] }],
      ['a note too long', { ...referral, note: 'x'.repeat(1001) }, { note: ['requests.errors.tooLong'] }],
      ['two addresses', { ...referral, email: 'a@example.org, b@example.org' }, { email: ['requests.errors.emailInvalid'] }],
    ])('%s', async (_, body, errors) => {
      const res = await ask(body);
      expect(errorsOf(res)).toEqual(errors);
      expect(await rows()).toEqual([]);
      expect(await mails()).toEqual([]);
    });
  });

  describe('limits', () => {
    it('answers the 6th request of a client within an hour 429 with Retry-After, storing nothing', async () => {
      for (let i = 0; i < 5; i++) expect((await ask(referral, { ip: '192.0.2.7' })).status).toBe(201);
      const sixth = await ask(referral, { ip: '192.0.2.7' });
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3500);
      expect(await rows()).toHaveLength(5);
      vi.setSystemTime(new Date(NOW.getTime() + 61 * 60_000));
      expect((await ask(referral, { ip: '192.0.2.7' })).status).toBe(201);
    });

    it('answers the 4th request of one email address within a day 429', async () => {
      // Three different requests (the same one again would be the first one: see "the same request twice").
      for (let i = 0; i < 3; i++) expect((await ask({ ...referral, reason: `Knie, ${i + 1}. Anfrage`, email: 'Viel@Example.org' })).status).toBe(201);
      const fourth = await ask({ ...referral, email: 'viel@example.org' });
      expect(fourth.status).toBe(429);
      expect(fourth.headers.get('retry-after')).toBeTruthy();
      // The limits keep HMACs, never the address.
      expect(JSON.stringify(await t.db.select().from(rateLimits))).not.toMatch(/viel|192\.0\.2/i);
    });

    it('answers a bot that fills the honeypot as a person, and stores and sends nothing', async () => {
      const res = await ask({ ...referral, website: 'https://spam.example' });
      expect(res.status).toBe(201);
      expect(res.json.reference).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
      expect(await rows()).toEqual([]);
      expect(await mails()).toEqual([]);
    });
  });

  describe('the same request twice (a double click, a reload, a second tab)', () => {
    /** The same patient's request, from the same client, as often as it is asked. */
    const same = (body: Record<string, unknown>, email = 'twice@example.org') =>
      call(requests, '/api/requests', { method: 'POST', body: { ...person, email, ...body }, ip: '10.0.9.9' }).then(async (res) => {
        await settled();
        return res;
      });
    const receipts = async (email = 'twice@example.org') => (await mails()).filter((m) => m.headers.to === email);

    it('within 10 minutes is the first one: its reference, one row, one receipt, one use of the limits', async () => {
      const first = await same(prescription);
      vi.setSystemTime(new Date(NOW.getTime() + 9 * 60_000 + 59_000));
      // The same details, the email written differently: the same request.
      const again = await same(prescription, '  TWICE@example.org ');
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.json).toEqual({ reference: first.json.reference });
      expect(await rows()).toHaveLength(1);
      expect(await receipts()).toHaveLength(1);
      const [emailLimit] = await t.db.select({ hits: rateLimits.hits }).from(rateLimits).where(eq(rateLimits.bucket, 'request-email'));
      expect(emailLimit!.hits).toHaveLength(1);
    });

    it('after 10 minutes, or with other details, or once the first is closed, it is a new request', async () => {
      const first = await same(referral);
      const other = await same({ ...referral, reason: 'Schulter' });
      expect(other.status).toBe(201);
      expect(other.json.reference).not.toBe(first.json.reference);
      vi.setSystemTime(new Date(NOW.getTime() + 10 * 60_000));
      const later = await same(referral);
      expect(later.status).toBe(201);
      expect(later.json.reference).not.toBe(first.json.reference);
      expect(await rows()).toHaveLength(3);
      expect(await receipts()).toHaveLength(3);
      // Within the next 10 minutes the later one stands for the same details, until reception closes it
      // (another patient here: one email address may send 3 requests a day).
      const open = await same(callback, 'closed-first@example.org');
      expect((await same(callback, 'closed-first@example.org')).json.reference).toBe(open.json.reference);
      const [row] = await t.db.select().from(patientRequests).where(eq(patientRequests.reference, open.json.reference));
      expect((await api(adminRequest, `/api/admin/requests/${row!.id}`, { method: 'PUT', params: { id: row!.id }, body: { status: 'done' } })).status).toBe(200);
      const afterClosing = await same(callback, 'closed-first@example.org');
      expect(afterClosing.status).toBe(201);
      expect(afterClosing.json.reference).not.toBe(open.json.reference);
      expect(await rows()).toHaveLength(5);
    });

    it('is decided in the database: two identical posts at the same instant make one request and one receipt', async () => {
      const answers = await Promise.all([same(callback), same(callback), same(callback)]);
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
      expect(new Set(answers.map((a) => a.json.reference)).size).toBe(1);
      expect(await rows()).toHaveLength(1);
      expect(await receipts()).toHaveLength(1);
    });

    it('keeps a keyed hash, never the details; the job forgets it once its 10 minutes are over', async () => {
      await same(prescription);
      const [row] = await rows();
      expect(row!.duplicateKey).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toMatch(/twice|Ramipril|Erika/i);
      vi.setSystemTime(new Date(NOW.getTime() + 5 * 60_000));
      await call(sendReminders, '/.netlify/functions/send-reminders');
      expect((await rows())[0]!.duplicateKey).toBe(row!.duplicateKey);
      vi.setSystemTime(new Date(NOW.getTime() + 10 * 60_000));
      await call(sendReminders, '/.netlify/functions/send-reminders');
      expect((await rows())[0]!.duplicateKey).toBeNull();
    });

    it('a plain form post of the same request is the same one as its JSON twin', async () => {
      const json = await same(referral, 'form-twice@example.org');
      const posted = await call(requests, '/api/requests', {
        method: 'POST',
        body: new URLSearchParams({ page_language: 'de', kind: 'referral', first_name: 'Erika', last_name: 'Mustermann', birth_date: '12.08.1964', email: 'form-twice@example.org', language: 'de', consent: 'on', specialty: 'Orthopädie', reason: 'Knieschmerzen seit Wochen' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ip: '10.0.9.9',
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('location')).toContain(`sent=${json.json.reference}&`);
      expect(await rows()).toHaveLength(1);
      expect(await receipts('form-twice@example.org')).toHaveLength(1);
    });
  });

  /** The holiday part of the settings as a fresh practice has it (docs/decisions/039-public-holidays.md). */
  const NO_HOLIDAY_CHANGES = { opened: [], close_dec_24: false, close_dec_31: false };

  describe('the practice switches kinds on and off', () => {
    it('offers every kind until told otherwise; a switched-off kind is not offered and its POST is 409 request-kind-closed; the save is audited', async () => {
      expect((await call(requests, '/api/requests')).json).toEqual({ kinds: { prescription: true, referral: true, callback: true }, notice_de: null, notice_en: null, sms: true });
      const settings = { prescription: false, referral: true, callback: true, notice_de: 'Bestellungen bis 11 Uhr liegen am nächsten Werktag bereit.', notice_en: 'Orders by 11 am are ready the next working day.' };
      const saved = await api(adminSettings, '/api/admin/settings', { method: 'PUT', body: { requests: settings } });
      expect(saved.status).toBe(200);
      expect(saved.json).toEqual({ require_second_factor: false, requests: settings, holidays: NO_HOLIDAY_CHANGES });
      expect((await call(requests, '/api/requests')).json).toEqual({ kinds: { prescription: false, referral: true, callback: true }, notice_de: settings.notice_de, notice_en: settings.notice_en, sms: true });
      const closed = await ask(prescription);
      expect(closed.status).toBe(409);
      expect(closed.json).toMatchObject({ type: 'request-kind-closed', kind: 'prescription' });
      expect(await rows()).toEqual([]);
      // The receipt of an open kind carries the notice in its language.
      await ask({ ...referral, language: 'en' });
      expect((await mails()).find((m) => m.headers.to === `patient-${people}@example.org`)!.text).toContain(settings.notice_en);
      const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.entity, 'settings'));
      expect(entry!.label).toBe('Anfragen: Folgerezept aus, Überweisung an, Rückruf an');
    });

    it('refuses a bad setting with 400 naming the field, and keeps the second-factor setting as it was', async () => {
      const bad = await api(adminSettings, '/api/admin/settings', { method: 'PUT', body: { requests: { prescription: 'ja', referral: true, callback: true, notice_de: 'a\u202eb' } } });
      expect(Object.keys(errorsOf(bad)).sort()).toEqual(['requests.notice_de', 'requests.prescription']);
      expect((await api(adminSettings, '/api/admin/settings', { method: 'PUT', body: {} })).status).toBe(400);
      expect((await api(adminSettings, '/api/admin/settings')).json).toEqual({
        require_second_factor: false,
        requests: { prescription: true, referral: true, callback: true, notice_de: null, notice_en: null },
        holidays: NO_HOLIDAY_CHANGES,
      });
    });
  });

  describe("the practice's notice", () => {
    const notices = async () => (await mails()).filter((m) => m.headers.to === 'team@praxis.example');

    it('says only how many new requests wait, at most once per 15 minutes; the job tells the rest', async () => {
      await ask(prescription);
      let sent = await notices();
      expect(sent.map((m) => m.subject)).toEqual(['1 neue Anfrage']);
      vi.setSystemTime(new Date(NOW.getTime() + 60_000));
      await ask(referral);
      await ask(callback);
      expect(await notices()).toHaveLength(1);
      // The job within the 15 minutes: nothing.
      vi.setSystemTime(new Date(NOW.getTime() + 10 * 60_000));
      await call(sendReminders, '/.netlify/functions/send-reminders');
      expect(await notices()).toHaveLength(1);
      // The job once they have passed: one notice of the two.
      vi.setSystemTime(new Date(NOW.getTime() + 15 * 60_000));
      await call(sendReminders, '/.netlify/functions/send-reminders');
      sent = await notices();
      expect(sent.map((m) => m.subject)).toEqual(['1 neue Anfrage', '2 neue Anfragen']);
      expect(sent[1]!.text).toContain('https://praxis.example/admin/anfragen');
      // Nothing new: nothing more.
      vi.setSystemTime(new Date(NOW.getTime() + 40 * 60_000));
      await call(sendReminders, '/.netlify/functions/send-reminders');
      expect(await notices()).toHaveLength(2);
      for (const mail of sent) {
        for (const value of [...ASKED, 'Erika', 'Mustermann', 'patient-', '1964', '5550123']) expect(mail.text + mail.html + mail.subject).not.toContain(value);
      }
    });
  });

  describe("reception's queue", () => {
    it('lists open requests oldest first with every detail, filters by status and kind, answers no-store and audits each view with its count', async () => {
      const first = await ask(callback);
      vi.setSystemTime(new Date(NOW.getTime() + 60_000));
      const second = await ask(prescription);
      vi.setSystemTime(new Date(NOW.getTime() + 120_000));
      await ask(referral);
      const list = await api(adminRequests, '/api/admin/requests');
      expect(list.status).toBe(200);
      expect(list.headers.get('cache-control')).toBe('no-store');
      expect(list.json.map((r: { reference: string }) => r.reference).slice(0, 2)).toEqual([first.json.reference, second.json.reference]);
      expect(list.json[1]).toMatchObject({
        kind: 'prescription',
        status: 'new',
        details_state: 'present',
        details: {
          first_name: 'Erika',
          last_name: 'Mustermann',
          birth_date: '1964-08-12',
          insurance: 'statutory',
          delivery: 'card',
          card_read_this_quarter: true,
          medications: [
            { name: 'Ramipril', strength: '5 mg', pack: 'N3' },
            { name: 'Metformin', strength: '1000 mg', pack: null },
          ],
        },
      });
      expect(list.json[0].details).toMatchObject({ phone: '+492115550123', callback_date: '2030-01-09', daypart: 'morning', topic: 'Blutwerte besprechen' });
      // The status link's token is the patient's alone.
      expect(list.json[0].details).not.toHaveProperty('token');
      const referrals = await api(adminRequests, '/api/admin/requests', { query: { kind: 'referral' } });
      expect(referrals.json.map((r: { kind: string }) => r.kind)).toEqual(['referral']);
      expect((await api(adminRequests, '/api/admin/requests', { query: { status: 'done' } })).json).toEqual([]);
      expect(errorsOf(await api(adminRequests, '/api/admin/requests', { query: { status: 'erledigt' } }))).toEqual({ status: ['admin.errors.invalid'] });

      const views = await t.db.select().from(auditLog).where(eq(auditLog.action, 'view'));
      // One row per answer that showed details (the empty one none), with the count only.
      expect(views.map((v) => v.label)).toEqual(['Anfragen (offen) angesehen: 3 Anfragen', 'Anfragen (offen, Überweisung) angesehen: 1 Anfrage']);
      expect(views.every((v) => v.entity === 'patient-details' && v.entityId === 'requests')).toBe(true);
    });

    it('is for staff only', async () => {
      const staff = await createNonAdmin(t.db);
      expect((await call(adminRequests, '/api/admin/requests')).status).toBe(401);
      expect((await call(adminRequests, '/api/admin/requests', { headers: { cookie: staff.cookie } })).status).toBe(403);
    });

    it('moves a request through in progress to done: the patient is emailed on done with the message and the status link, nothing asked for; each change audited without patient data', async () => {
      const asked = await ask(prescription);
      const [row] = await rows();
      const put = (body: unknown) => api(adminRequest, `/api/admin/requests/${row!.id}`, { method: 'PUT', params: { id: row!.id }, body });
      const before = (await mails()).length;
      const working = await put({ status: 'in_progress' });
      expect(working.status).toBe(200);
      expect(working.json).toMatchObject({ status: 'in_progress', patient_notified: false, closed_at: null });
      expect((await mails()).length).toBe(before);
      vi.setSystemTime(new Date(NOW.getTime() + 10 * 60_000));
      const done = await put({ status: 'done', message: 'Liegt ab morgen auf Ihrer Karte.' });
      expect(done.status).toBe(200);
      expect(done.json).toMatchObject({ status: 'done', patient_notified: true, message: 'Liegt ab morgen auf Ihrer Karte.' });
      const mail = (await mails()).find((m) => m.subject.startsWith('Ihre Anfrage ist erledigt'))!;
      expect(mail.subject).toBe(`Ihre Anfrage ist erledigt (${asked.json.reference})`);
      expect(mail.text).toContain('Ihre Anfrage (Folgerezept) vom Montag, 7. Januar 2030 ist erledigt.');
      expect(mail.text).toContain('Liegt ab morgen auf Ihrer Karte.');
      expect(mail.text).toMatch(TOKEN);
      for (const value of ASKED) expect(mail.text + mail.html).not.toContain(value);
      // The status page shows it with the message.
      const token = tokenOf(mail);
      expect((await call(requestStatus, '/api/requests/status', { query: { token } })).json).toMatchObject({ status: 'done', message: 'Liegt ab morgen auf Ihrer Karte.' });
      // Closed is closed.
      const again = await put({ status: 'declined', message: 'Doch nicht.' });
      expect(again.status).toBe(409);
      const changes = await t.db.select().from(auditLog).where(eq(auditLog.entity, 'patient-request'));
      expect(changes.map((c) => c.label)).toEqual([`Anfrage ${asked.json.reference} (Folgerezept): in Bearbeitung`, `Anfrage ${asked.json.reference} (Folgerezept): erledigt`]);
      expect(JSON.stringify(changes)).not.toMatch(/Erika|Ramipril|Karte/);
    });

    it('declines only with a message, emailed to the patient in their language', async () => {
      await ask({ ...callback, language: 'en' });
      const [row] = await rows();
      const put = (body: unknown) => api(adminRequest, `/api/admin/requests/${row!.id}`, { method: 'PUT', params: { id: row!.id }, body });
      expect(errorsOf(await put({ status: 'declined' }))).toEqual({ message: ['admin.errors.messageRequired'] });
      expect(errorsOf(await put({ status: 'declined', message: '  ' }))).toEqual({ message: ['admin.errors.messageRequired'] });
      expect(errorsOf(await put({ status: 'new' }))).toEqual({ status: ['admin.errors.invalid'] });
      expect((await rows())[0]!.status).toBe('new');
      const declined = await put({ status: 'declined', message: 'Bitte vereinbaren Sie einen Termin.' });
      expect(declined.json).toMatchObject({ status: 'declined', patient_notified: true });
      const mail = (await mails()).find((m) => m.subject.startsWith('About your request'))!;
      expect(mail.text).toContain('Bitte vereinbaren Sie einen Termin.');
      expect(mail.text).not.toContain('Blutwerte');
      expect((await api(adminRequest, `/api/admin/requests/${crypto.randomUUID()}`, { method: 'PUT', params: { id: crypto.randomUUID() }, body: { status: 'done' } })).status).toBe(404);
    });

    it('lets only one of two colleagues close a request at once', async () => {
      await ask(referral);
      const [row] = await rows();
      const put = (status: string) => api(adminRequest, `/api/admin/requests/${row!.id}`, { method: 'PUT', params: { id: row!.id }, body: { status, message: 'Erledigt.' } });
      const results = await Promise.all([put('done'), put('declined')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(eq(auditLog.entity, 'patient-request'))).toEqual([{ n: 1 }]);
    });
  });

  describe('the form without JavaScript', () => {
    const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      call(requests, '/api/requests', {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        ip: `10.0.2.${++people % 250}`,
      });
    const fields = {
      page_language: 'de',
      kind: 'referral',
      first_name: 'Erika',
      last_name: 'Mustermann',
      birth_date: '12.08.1964',
      email: 'form@example.org',
      language: 'de',
      consent: 'on',
      specialty: 'Orthopädie',
      reason: 'Knie',
      // Another kind's section, posted too, is left out.
      'medications.0.name': '',
      topic: '',
    };

    /** The site's pages as the functions fetch them: the request page in small. */
    const sitePages = (lang: 'de' | 'en' = 'de') =>
      vi.stubGlobal('fetch', async () => new Response(builtRequestPage(lang), { headers: { 'content-type': 'text/html; charset=utf-8' } }));

    it('answers a received post 303 to the received page (the reference, nothing typed); a reload of it is a read that changes nothing', async () => {
      const res = await form(fields);
      expect(res.status).toBe(303);
      const [row] = await rows();
      expect(row!.kind).toBe('referral');
      const location = new URL(res.headers.get('location')!, 'https://praxis.example');
      expect(location.pathname).toBe('/anfrage/formular');
      expect(location.hash).toBe('#request-result');
      expect([...location.searchParams.keys()]).toEqual(['sent', 'tag']);
      expect(location.searchParams.get('sent')).toBe(row!.reference);
      for (const value of ['Erika', 'Mustermann', 'form@', 'Orthop', 'Knie']) expect(location.href).not.toContain(value);
      sitePages();
      try {
        const before = JSON.stringify([await rows(), await mails()]);
        for (let reload = 0; reload < 2; reload++) {
          const page = await call(requestForm, location.pathname, { query: Object.fromEntries(location.searchParams) });
          expect(page.status).toBe(200);
          expect(page.headers.get('cache-control')).toBe('no-store');
          expect(page.text).toContain(`Ihre Referenz: ${row!.reference}.`);
        }
        expect(JSON.stringify([await rows(), await mails()])).toBe(before);
        // A made-up received page is the plain form.
        const forged = await call(requestForm, location.pathname, { query: { sent: 'ABCDEF', tag: '0'.repeat(32) } });
        expect(forged.text).not.toContain('ABCDEF');
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('renders the form with the kinds the practice takes now and its notice, in the page’s language', async () => {
      await api(adminSettings, '/api/admin/settings', {
        method: 'PUT',
        body: { requests: { prescription: false, referral: true, callback: false, notice_de: 'Bis 11 Uhr bestellt, am nächsten Werktag fertig.', notice_en: 'Ordered by 11 am, ready the next working day.' } },
      });
      sitePages('en');
      try {
        const page = await call(requestForm, '/en/request/form');
        expect(page.status).toBe(200);
        expect(page.text).toContain('value="referral"');
        expect(page.text).not.toContain('value="prescription"');
        expect(page.text).not.toContain('value="callback"');
        expect(page.text).toContain('Ordered by 11 am, ready the next working day.');
        expect(page.text).not.toContain('http-equiv="refresh"');
        // A refused post's page is rendered the same way.
        const bad = await form({ ...fields, page_language: 'en', email: 'nope' });
        expect(bad.status).toBe(400);
        expect(bad.text).not.toContain('value="prescription"');
        expect(bad.text).toContain('Ordered by 11 am');
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('answers the errors by the form’s field names, a medication row as the form numbers it', async () => {
      vi.stubGlobal('fetch', async () => new Response('down', { status: 503 }));
      try {
        const res = await form({ ...fields, kind: 'prescription', insurance: 'private', delivery: 'card', 'medications.0.name': '', 'medications.2.strength': '5 mg', consent: '' });
        expect(res.status).toBe(400);
        expect(res.text).toContain('Medikament 3 – Name des Medikaments: Bitte geben Sie den Namen des Medikaments ein.');
        expect(res.text).toContain('Einverständnis: Bitte stimmen Sie der Speicherung für diese Anfrage zu.');
        expect(res.text).toContain('Ein E-Rezept auf die Karte gibt es nur für gesetzlich Versicherte.');
        expect(await rows()).toEqual([]);
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('answers the page script JSON when it asks for it, with the form’s field names', async () => {
      const ok = await form(fields, { accept: 'application/json' });
      expect(ok.status).toBe(201);
      expect(ok.json).toEqual({ reference: expect.any(String) });
      const bad = await form({ ...fields, kind: 'prescription', insurance: 'statutory', delivery: 'pickup', 'medications.1.name': 'Ramipril', 'medications.0.name': '', 'medications.3.pack': 'N1' }, { accept: 'application/json' });
      expect(errorsOf(bad)).toEqual({ 'medications.3.name': ['requests.errors.medicationName'] });
    });

    it('refuses a post from another site', async () => {
      const res = await form(fields, { origin: 'https://evil.example' });
      expect(res.status).toBe(403);
      expect(await rows()).toEqual([]);
    });
  });
});

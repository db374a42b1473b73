/**
 * SMS, the outbox's second channel (docs/decisions/043-sms-second-channel.md),
 * through the real handlers on both drivers with a fake clock. The local
 * stand-in (.sms.txt files) and seven.io's client behind a stand-in of its
 * API (the global fetch it uses) carry the SMS:
 * - a phone booking with a mobile number and consent is confirmed by SMS;
 *   a landline with `sms: true` is refused (400 phone-not-mobile) and
 *   nothing is stored, on every way in;
 * - an SMS outage, then each SMS sent exactly once, the answer never
 *   waiting; the month's count holds what was handed over;
 * - a real bounce sends the notice by SMS; an out-of-office reply does
 *   not; an email that finally fails does too; a failed SMS asks for a call;
 * - the monthly limit: further SMS fail to the call list, the owner gets
 *   one email;
 * - quiet hours: an SMS waits until 07:00, except a cancellation for the
 *   next morning;
 * - the delivery webhook's signature, 401/404/400 changing nothing.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import blockedCollection from '../../netlify/functions/admin-blocked-dates';
import bookedCollection from '../../netlify/functions/admin-booked-slots';
import cancelOne from '../../netlify/functions/admin-booked-slot-cancel';
import stats from '../../netlify/functions/admin-stats';
import bookings from '../../netlify/functions/bookings';
import waitlist from '../../netlify/functions/waitlist';
import postmark from '../../netlify/functions/webhooks-postmark';
import smsHook from '../../netlify/functions/webhooks-sms';
import shortLink from '../../netlify/functions/short-link';
import cancelLink from '../../netlify/functions/bookings-cancel';
import { appointmentContacts, blockedDates, bookedSlots, cancelledBookings, emailOutbox, rateLimits, shortLinks, smsUsage as smsUsageTable, waitlistEntries } from '../../db/schema';
import { dataKeyRing } from '../../src/server/appointment-contact/keys.server';
import { runDelivery } from '../../src/server/email/delivery.server';
import { offerFreedSeats } from '../../src/server/waitlist/offers.server';
import { smsUsage } from '../../src/server/sms/usage.server';
import { smsWebhookSignature } from '../../src/server/sms/webhook.server';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { bookingRequest, testCaller } from '../helpers/patient';
import { smsFiles } from '../helpers/sms-files';
import { databaseKinds, useTestBed, type TestBed } from '../setup/test-bed';

// Monday 7 January 2030, 09:00 in Berlin.
const NOW = new Date('2030-01-07T09:00:00+01:00');
const MINUTE = 60_000;
const MOBILE = '0171 2345678';
const MOBILE_E164 = '+491712345678';
const SECRET = 'seven-signing-key';
const POSTMARK = `Basic ${Buffer.from('postmark:hook-secret').toString('base64')}`;

/** seven.io's API as its client sees it: refuses until `refuseUntil` (fake clock); `delayMs` holds each answer (real time). */
function sevenStandIn() {
  const state = { refuseUntil: 0, delayMs: 0, accepted: [] as Array<{ id: string; to: string; text: string }>, refused: 0 };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (!url.startsWith('https://gateway.seven.io/api/sms')) throw new Error(`unexpected request to ${url}`);
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (Date.now() < state.refuseUntil) {
      state.refused++;
      return new Response('<html>503 Service Unavailable</html>', { status: 503 });
    }
    const body = JSON.parse(String(init?.body)) as { to: string | string[]; text: string };
    const id = String(77_000_000 + state.accepted.length);
    const to = [body.to].flat()[0]!;
    state.accepted.push({ id, to, text: body.text });
    return Response.json({
      success: '100',
      total_price: 0.075,
      balance: 10,
      debug: 'false',
      sms_type: 'direct',
      messages: [{ id, sender: 'Praxis', recipient: to, text: body.text, encoding: 'gsm', label: null, parts: 1, price: 0.075, success: true, error: null, error_text: null, is_binary: false, udh: null }],
    });
  });
  return state;
}

async function snapshot(t: TestBed): Promise<string> {
  const parts = [];
  for (const table of ['email_outbox', 'booked_slots', 'cancelled_bookings', 'sms_usage', 'short_links']) {
    const result = (await t.db.execute(sql.raw(`select * from ${table} order by 1`))) as unknown as { rows: unknown[] };
    parts.push(JSON.stringify(result.rows));
  }
  return parts.join('\n');
}

describe.each(databaseKinds)('SMS on %s', (kind) => {
  const t = useTestBed({
    database: kind,
    now: NOW,
    dataDir: 'sms-',
    env: {
      SITE_URL: 'https://praxis.example',
      PRACTICE_EMAIL: 'team@praxis.example',
      SMS_WEBHOOK_SECRET: SECRET,
      SMS_SENDER: 'Praxis',
      POSTMARK_WEBHOOK_USER: 'postmark',
      POSTMARK_WEBHOOK_PASSWORD: 'hook-secret',
    },
  });
  let admin: TestUser;
  let typeId: string;
  const api = asAdmin(() => admin);
  let serial = 0;
  const logs: string[] = [];

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    typeId = (await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 30, maxSlotsPerTime: 10 })).id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    for (const table of [emailOutbox, shortLinks, waitlistEntries, appointmentContacts, bookedSlots, cancelledBookings, blockedDates, rateLimits, smsUsageTable]) await t.db.delete(table);
    await rm(t.outbox, { recursive: true, force: true });
    logs.length = 0;
    captureConsole(logs);
    return () => {
      vi.unstubAllGlobals();
      vi.unstubAllEnvs();
      vi.restoreAllMocks();
    };
  });

  const byPhone = (time: string, extra: Record<string, unknown> = {}, date = '2030-01-09') =>
    api(bookedCollection, '/api/admin/booked-slots', {
      method: 'POST',
      body: { appointment_type_id: typeId, appointment_date: date, appointment_time: time, ...testCaller, phone: MOBILE, sms: true, language: 'de', ...extra },
    });
  const online = (time: string, extra: Record<string, unknown> = {}) =>
    call(bookings, '/api/bookings', { method: 'POST', ip: `203.0.113.${++serial}`, body: bookingRequest(typeId, '2030-01-09', time, { phone: MOBILE, sms: true, ...extra }) });
  const rowOf = async (id: string) => ((await api(bookedCollection, '/api/admin/booked-slots')).json as Array<Record<string, unknown>>).find((r) => r.id === id)!;
  const smsRows = () => t.db.select().from(emailOutbox).where(sql`${emailOutbox.channel} = 'sms'`).orderBy(emailOutbox.createdAt);
  const block = (date: string, extra: Record<string, unknown> = {}) =>
    api(blockedCollection, '/api/admin/blocked-dates', { method: 'POST', body: { date, reason: 'Krank', appointment_type_id: null, bookings: 'cancel', ...extra } });

  it('a phone booking with a mobile number and consent is confirmed by SMS: date, time, the practice\'s phone; the list says "SMS gesendet"', async () => {
    const res = await byPhone('09:00');
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ patient_notice: 'pending', patient_channel: 'sms', patient: expect.objectContaining({ phone: MOBILE_E164 }) });
    await settled();
    const [file] = await smsFiles(t.outbox);
    expect(file).toMatchObject({ to: MOBILE_E164, from: 'Praxis' });
    expect(file!.text).toBe('Hausarztpraxis Düsseldorf: Ihr Termin am Mi 09.01. um 09:00 Uhr ist eingetragen. Absagen oder verschieben: Tel. 0211 123 456 0');
    expect(file!.text).not.toMatch(/Check-up|Vorsorge|Müller|Hans/);
    const [row] = await smsRows();
    expect(row).toMatchObject({ kind: 'booking-confirmation', audience: 'patient', status: 'sent', providerId: file!.id, parts: 1, bookingId: res.json.id });
    expect(await rowOf(res.json.id)).toMatchObject({ patient_notice: 'sms_sent', patient_channel: 'sms', needs_call: false });
    expect((await api(stats, '/api/admin/stats')).json.sms).toEqual({ sent_this_month: 1, limit: 300, configured: true });
    // Logged by file name only, never the number or the text.
    expect(logs.join('\n')).toMatch(/sms written to outbox: .*\.sms\.txt/);
    expect(logs.join('\n')).not.toMatch(/2345678|Termin am/);
  });

  it('sms: true with a landline is 400 phone-not-mobile naming phone, on every way in, and stores nothing', async () => {
    const before = await snapshot(t);
    const phone = await byPhone('09:00', { phone: '0211 5550123' });
    expect(phone.status).toBe(400);
    expect(phone.json).toMatchObject({ type: 'phone-not-mobile', errors: { phone: ['admin.errors.phoneNotMobile'] } });
    const web = await online('09:00', { phone: '0211 5550123' });
    expect(web.status).toBe(400);
    expect(web.json).toMatchObject({ type: 'phone-not-mobile', errors: { phone: ['bookingForm.errors.phoneNotMobile'] } });
    const wait = await call(waitlist, '/api/waitlist', {
      method: 'POST',
      ip: '203.0.113.250',
      body: { appointment_type_id: typeId, first_name: 'Erika', last_name: 'Muster', birth_date: '1964-08-12', email: 'w@example.org', phone: '0211 5550123', language: 'de', consent: true, from: '2030-01-08', to: '2030-01-20', sms: true },
    });
    expect(wait.status).toBe(400);
    expect(wait.json).toMatchObject({ type: 'phone-not-mobile', errors: { phone: ['bookingForm.errors.phoneNotMobile'] } });
    expect(await snapshot(t)).toBe(before);
    expect(await t.db.select().from(waitlistEntries)).toEqual([]);
    // The same landline without SMS is a fine phone number.
    expect((await byPhone('09:00', { phone: '0211 5550123', sms: false })).status).toBe(201);
  });

  it('the SMS provider down for 10 minutes: the block answers without waiting, then each SMS goes exactly once and is counted once', async () => {
    vi.stubEnv('SMS_API_KEY', 'stand-in-key');
    const seven = sevenStandIn();
    seven.refuseUntil = NOW.getTime() + 10 * MINUTE;
    const ids = [];
    for (const time of ['09:00', '09:20', '09:40']) ids.push((await byPhone(time, {}, '2030-01-10')).json.id as string);
    await settled();
    expect(seven.accepted).toEqual([]);
    const saved = await block('2030-01-10');
    expect(saved.status).toBe(201);
    expect(saved.json.cancelled.map((c: { channel: string; patient_notified: boolean }) => [c.channel, c.patient_notified])).toEqual(Array(3).fill(['sms', true]));
    await settled();
    for (let minute = 1; minute <= 40; minute++) {
      vi.setSystemTime(NOW.getTime() + minute * MINUTE);
      await runDelivery();
    }
    vi.setSystemTime(NOW.getTime() + 41 * MINUTE);
    const rows = await smsRows();
    expect(rows.map((r) => [r.kind, r.status]).sort()).toEqual([
      ...Array(3).fill(['booking-confirmation', 'sent']),
      ...Array(3).fill(['notice-cancelled-by-practice', 'sent']),
    ]);
    expect(seven.accepted).toHaveLength(6);
    expect(new Set(seven.accepted.map((m) => m.id)).size).toBe(6);
    expect(rows.map((r) => r.providerId).sort()).toEqual(seven.accepted.map((m) => m.id).sort());
    expect(seven.accepted.every((m) => m.to === MOBILE_E164)).toBe(true);
    expect(seven.accepted.filter((m) => m.text.includes('absagen')).map((m) => m.text)).toEqual(
      Array(3).fill(expect.stringMatching(/^Hausarztpraxis Düsseldorf: Leider müssen wir Ihren Termin am Do 10\.01\. um 09:[024]0 Uhr absagen\. Neuer Termin: Tel\. 0211 123 456 0 oder https:\/\/praxis\.example\/termin$/)),
    );
    // Refusals were not billed: the month holds exactly the parts of the six that went (a cancellation with the rebooking address takes two).
    expect(rows.map((r) => [r.kind, r.parts]).sort()).toEqual([...Array(3).fill(['booking-confirmation', 1]), ...Array(3).fill(['notice-cancelled-by-practice', 2])]);
    expect((await smsUsage(t.db)).sent_this_month).toBe(9);
    // Each attempt was one hand-over: refused ones until minute 10, then each SMS once (1, 5, 15 minutes apart).
    expect(seven.refused).toBe(rows.length * 3);
    vi.setSystemTime(NOW);
    for (const id of ids) expect(await rowOf(id)).toMatchObject({ status: 'cancelled_by_practice', patient_notice: 'sms_sent', patient_channel: 'sms', needs_call: false });
    expect(logs.join('\n')).toMatch(/sms .* refused \(attempt 1\): SmsProviderError/);
  });

  it('a provider that takes 300 ms: the booking\'s answer does not wait for it', async () => {
    vi.stubEnv('SMS_API_KEY', 'stand-in-key');
    const seven = sevenStandIn();
    seven.delayMs = 300;
    const booked = await byPhone('10:00');
    expect(booked.status).toBe(201);
    expect(seven.accepted).toHaveLength(0);
    await settled();
    expect(seven.accepted).toHaveLength(1);
  });

  it('a real bounce sends the notice by SMS instead of a call; an out-of-office reply changes nothing but the message', async () => {
    const first = await online('09:00', { email: 'bounce@example.org' });
    const second = await online('09:20', { email: 'away@example.org' });
    expect([first.status, second.status]).toEqual([201, 201]);
    await settled();
    const providerOf = async (id: string) =>
      (await t.db.select().from(emailOutbox).where(sql`${emailOutbox.bookingId} = ${id}::uuid and ${emailOutbox.audience} = 'patient'`))[0]!.providerId!;
    const event = (body: unknown) => call(postmark, '/api/webhooks/postmark', { method: 'POST', body, headers: { authorization: POSTMARK } });
    // An out-of-office reply: recorded on the message, no SMS, no call.
    expect((await event({ RecordType: 'Bounce', MessageID: await providerOf(second.json.booking.id), Type: 'AutoResponder', TypeCode: 16 })).status).toBe(200);
    for (const type of ['Transient', 'SoftBounce', 'DnsError']) await event({ RecordType: 'Bounce', MessageID: await providerOf(second.json.booking.id), Type: type });
    await settled();
    expect(await rowOf(second.json.booking.id)).toMatchObject({ patient_notice: 'sent', patient_channel: 'email', needs_call: false });
    const [away] = await t.db.select().from(emailOutbox).where(sql`${emailOutbox.providerId} = ${await providerOf(second.json.booking.id)}`);
    expect(away).toMatchObject({ status: 'sent', lastError: 'bounce:DnsError' });
    expect(await smsRows()).toEqual([]);
    // A hard bounce: the confirmation goes by SMS with the link to the booking's page; nobody is asked to call.
    expect((await event({ RecordType: 'Bounce', MessageID: await providerOf(first.json.booking.id), Type: 'HardBounce', Inactive: true })).status).toBe(200);
    await settled();
    const [sms] = await smsFiles(t.outbox);
    expect(sms!.to).toBe(MOBILE_E164);
    expect(sms!.text).toMatch(/^Hausarztpraxis Düsseldorf: Ihr Termin am Mi 09\.01\. um 09:00 Uhr ist gebucht\. Absagen oder verschieben: https:\/\/praxis\.example\/k\/[2-9A-HJ-NP-Za-km-z]{12}$/);
    const link = /https:\/\/\S+/.exec(sms!.text)![0];
    expect(link.length).toBeLessThanOrEqual(40);
    expect(await rowOf(first.json.booking.id)).toMatchObject({ patient_notice: 'sms_sent', patient_channel: 'sms', needs_call: false });
    // A complaint after the bounce sends no second SMS.
    await event({ RecordType: 'SpamComplaint', MessageID: await providerOf(first.json.booking.id) });
    await settled();
    expect(await smsRows()).toHaveLength(1);
  });

  it('an email that finally fails sends its SMS; an SMS that fails asks staff to call ("SMS nicht zugestellt")', async () => {
    // .invalid never takes mail (the local outbox refuses it for good): the fallback SMS goes at once.
    const failing = await online('09:00', { email: 'nobody@example.invalid' });
    await settled();
    expect(await rowOf(failing.json.booking.id)).toMatchObject({ patient_notice: 'sms_sent', patient_channel: 'sms', needs_call: false });
    // A number the stand-in cannot reach: the SMS fails and the booking asks for a call.
    const unreachable = await byPhone('09:40', { phone: '01579 9990123' });
    await settled();
    expect(await rowOf(unreachable.json.id)).toMatchObject({ patient_notice: 'sms_failed', patient_channel: 'none', needs_call: true });
    // Without SMS consent, the failing email asks for the call as before.
    const plain = await online('10:00', { email: 'plain@example.invalid', sms: false });
    await settled();
    expect(await rowOf(plain.json.booking.id)).toMatchObject({ patient_notice: 'failed', patient_channel: 'none', needs_call: true });
  });

  it('at the monthly limit further SMS go on the call list and the owner gets one email; nothing is dropped unseen', async () => {
    vi.stubEnv('SMS_MONTHLY_LIMIT', '2');
    const ids = [];
    for (const time of ['09:00', '09:20', '09:40', '10:00']) {
      ids.push((await byPhone(time)).json.id as string);
      await settled();
    }
    const rows = await smsRows();
    expect(rows.map((r) => [r.status, r.lastError])).toEqual([
      ['sent', null],
      ['sent', null],
      ['failed', 'monthly-limit'],
      ['failed', 'monthly-limit'],
    ]);
    expect(await smsFiles(t.outbox)).toHaveLength(2);
    expect(await rowOf(ids[2]!)).toMatchObject({ needs_call: true, patient_notice: 'sms_failed' });
    const owner = await t.db.select().from(emailOutbox).where(sql`${emailOutbox.kind} = 'practice-sms-limit'`);
    expect(owner).toHaveLength(1);
    expect(owner[0]).toMatchObject({ audience: 'practice', status: 'sent' });
    const stat = (await api(stats, '/api/admin/stats')).json;
    expect(stat.sms).toEqual({ sent_this_month: 2, limit: 2, configured: true });
    expect(stat.needsCall).toBe(2);
    // The next month counts afresh.
    expect(await smsUsage(t.db, new Date('2030-02-01T00:00:00+01:00'))).toEqual({ sent_this_month: 0, limit: 2, configured: true });
    expect(await smsUsage(t.db, new Date('2030-01-31T23:59:00+01:00'))).toEqual({ sent_this_month: 2, limit: 2, configured: true });
  });

  it('quiet hours: an SMS queued at 21:00 waits until 07:00; the cancellation of a next-morning appointment goes at once', async () => {
    const later = await byPhone('09:00', {}, '2030-01-10');
    const tomorrow = await byPhone('08:20', {}, '2030-01-08');
    await settled();
    expect(await smsFiles(t.outbox)).toHaveLength(2);
    vi.setSystemTime(new Date('2030-01-07T21:00:00+01:00'));
    const night = await createAdmin(t.db);
    for (const id of [later.json.id, tomorrow.json.id]) {
      expect((await asAdmin(() => night)(cancelOne, `/api/admin/booked-slots/${id}/cancel`, { method: 'POST', body: {}, params: { id } })).status).toBe(200);
    }
    await settled();
    const files = await smsFiles(t.outbox);
    expect(files).toHaveLength(3);
    expect(files[2]!.text).toContain('Di 08.01. um 08:20 Uhr absagen');
    const waiting = (await smsRows()).find((r) => r.status === 'pending')!;
    expect(waiting).toMatchObject({ kind: 'notice-cancelled-by-practice', bookingId: later.json.id });
    expect(waiting.nextAttemptAt.toISOString()).toBe(new Date('2030-01-08T07:00:00+01:00').toISOString());
    vi.setSystemTime(new Date('2030-01-08T06:59:00+01:00'));
    await runDelivery();
    expect(await smsFiles(t.outbox)).toHaveLength(3);
    vi.setSystemTime(new Date('2030-01-08T07:00:00+01:00'));
    await runDelivery();
    const after = await smsFiles(t.outbox);
    expect(after).toHaveLength(4);
    expect(after[3]!.text).toContain('Do 10.01. um 09:00 Uhr absagen');
  });

  it('delivery reports: wrong or missing signature 401, bad body 400, unknown id 404, none changing anything; NOTDELIVERED asks for a call', async () => {
    vi.stubEnv('SMS_API_KEY', 'stand-in-key');
    const seven = sevenStandIn();
    const booked = await byPhone('09:00');
    await settled();
    const providerId = seven.accepted[0]!.id;
    const url = 'http://localhost:4321/api/webhooks/sms';
    const report = (status: string, id = providerId) => JSON.stringify({ webhook_event: 'dlr', webhook_timestamp: '2030-01-07 09:01:00', data: { msg_id: id, status, timestamp: '2030-01-07 09:01:00' } });
    const post = (body: string, sign: { secret?: string; timestamp?: number; nonce?: string; url?: string } | null = {}) => {
      const timestamp = String(sign?.timestamp ?? Math.floor(Date.now() / 1000));
      const nonce = sign?.nonce ?? randomUUID().replace(/-/g, '');
      const headers: Record<string, string> = sign
        ? { 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': smsWebhookSignature(sign.secret ?? SECRET, { timestamp, nonce, method: 'POST', url: sign.url ?? url, body }) }
        : {};
      return call(smsHook, '/api/webhooks/sms', { method: 'POST', body, headers });
    };
    const before = await snapshot(t);
    expect((await post(report('NOTDELIVERED'), null)).status).toBe(401);
    expect((await post(report('NOTDELIVERED'), { secret: 'guessed' })).status).toBe(401);
    expect((await post(report('NOTDELIVERED'), { timestamp: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(401);
    expect((await post(report('NOTDELIVERED'), { url: 'https://elsewhere.example/api/webhooks/sms' })).status).toBe(401);
    expect((await post('{"webhook_event": "dlr", ')).status).toBe(400);
    expect((await post(JSON.stringify({ webhook_event: 'dlr', data: { msg_id: providerId } }))).status).toBe(400);
    expect((await post(report('NOTDELIVERED', '99999999'))).status).toBe(404);
    expect(await snapshot(t)).toBe(before);
    // Signed for the site's own address (behind Netlify's proxy) is as good as for the request's.
    expect((await post(report('BUFFERED'), { url: 'https://praxis.example/api/webhooks/sms' })).status).toBe(200);
    expect(await rowOf(booked.json.id)).toMatchObject({ patient_notice: 'sms_sent', needs_call: false });
    // An inbound SMS is taken and never stored.
    expect((await post(JSON.stringify({ webhook_event: 'sms_mo', data: { id: '1', sender: MOBILE_E164, text: 'Danke' } }))).json).toEqual({ ignored: true });
    expect((await post(report('NOTDELIVERED'))).status).toBe(200);
    expect(await rowOf(booked.json.id)).toMatchObject({ patient_notice: 'sms_failed', patient_channel: 'none', needs_call: true });
    // A failure is final.
    await post(report('DELIVERED'));
    expect(await rowOf(booked.json.id)).toMatchObject({ patient_notice: 'sms_failed', needs_call: true });
  });

  it('DELIVERED marks the SMS delivered; the row stays "SMS gesendet"', async () => {
    vi.stubEnv('SMS_API_KEY', 'stand-in-key');
    const seven = sevenStandIn();
    const booked = await byPhone('09:00');
    await settled();
    const body = JSON.stringify({ webhook_event: 'dlr', webhook_timestamp: 'x', data: { msg_id: Number(seven.accepted[0]!.id), status: 'DELIVERED' } });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = 'n0nce';
    const res = await call(smsHook, '/api/webhooks/sms', {
      method: 'POST',
      body,
      headers: { 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': smsWebhookSignature(SECRET, { timestamp, nonce, method: 'POST', url: 'http://localhost:4321/api/webhooks/sms', body }) },
    });
    expect(res.status).toBe(200);
    const [row] = await smsRows();
    expect(row!.status).toBe('delivered');
    expect(await rowOf(booked.json.id)).toMatchObject({ patient_notice: 'sms_sent', patient_channel: 'sms' });
  });
  it('short links: /k/<code> (at most 40 characters) leads to the booking\'s page; unknown codes are limited per client; the link goes with its booking', async () => {
    const booked = await online('09:00', { email: 'gone@example.invalid' });
    await settled();
    const [sms] = await smsFiles(t.outbox);
    const link = /https:\/\/praxis\.example\/k\/(\S+)$/.exec(sms!.text)!;
    expect(link[0].length).toBeLessThanOrEqual(40);
    const code = link[1]!;
    expect(code).toMatch(/^[2-9A-HJ-NP-Za-km-z]{12}$/);
    const follow = (c: string, ip = '198.51.100.7') => call(shortLink, `/k/${c}`, { ip });
    const hit = await follow(code);
    expect(hit.status).toBe(302);
    expect(hit.headers.get('cache-control')).toBe('no-store');
    const target = new URL(hit.headers.get('location')!);
    expect(target.origin + target.pathname).toBe('https://praxis.example/termin/absagen');
    // The page's token is the booking's: the cancel page shows it.
    expect((await call(cancelLink, '/api/bookings/cancel', { query: { token: target.searchParams.get('token')! } })).json).toMatchObject({ reference: booked.json.booking.reference });
    // Neither the code nor the token is kept in clear.
    const stored = JSON.stringify(await t.db.select().from(shortLinks));
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(target.searchParams.get('token')!);
    // Reading a link writes nothing.
    const before = await snapshot(t);
    await follow(code);
    expect(await snapshot(t)).toBe(before);
    // Guessing: 10 unknown codes from one client are 404, then 429 with Retry-After, even for the right code; other clients are not affected.
    for (let i = 0; i < 10; i++) expect((await follow(`ABCDEFGHJK${String(i).padStart(2, '2').replace(/[01]/g, '2')}`)).status).toBe(404);
    const limited = await follow('ABCDEFGHJKMN');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await follow(code)).status).toBe(429);
    expect((await follow(code, '198.51.100.8')).status).toBe(302);
    vi.setSystemTime(NOW.getTime() + 16 * MINUTE);
    expect((await follow(code)).status).toBe(302);
    vi.setSystemTime(NOW);
    // Malformed codes are unknown codes.
    expect((await follow('x', '198.51.100.9')).status).toBe(404);
    // Cancelled by the practice: the booking row goes, and the link with it.
    expect((await api(cancelOne, `/api/admin/booked-slots/${booked.json.booking.id}/cancel`, { method: 'POST', body: {}, params: { id: booked.json.booking.id } })).status).toBe(200);
    expect(await t.db.select().from(shortLinks)).toEqual([]);
    expect((await follow(code, '198.51.100.10')).status).toBe(404);
  });

  it('a waitlist offer goes by SMS beside its email, with a short link to the offer\'s page', async () => {
    const type = (await addBookableType(t.db, { name: 'Impfung', description: 'Grippe', maxAdvanceDays: 30, maxSlotsPerTime: 1 })).id;
    const taken = await call(bookings, '/api/bookings', { method: 'POST', ip: '203.0.113.200', body: bookingRequest(type, '2030-01-09', '09:00', { email: 'first@example.org' }) });
    expect(taken.status).toBe(201);
    const joined = await call(waitlist, '/api/waitlist', {
      method: 'POST',
      ip: '203.0.113.201',
      body: { appointment_type_id: type, first_name: 'Erika', last_name: 'Muster', birth_date: '1964-08-12', email: 'wait@example.org', phone: MOBILE, language: 'de', consent: true, from: '2030-01-08', to: '2030-01-20', sms: true },
    });
    expect(joined.status).toBe(201);
    await settled();
    vi.setSystemTime(NOW.getTime() + MINUTE);
    // The first patient cancels: the seat is offered to the waiting patient, by email and SMS.
    expect((await api(cancelOne, `/api/admin/booked-slots/${taken.json.booking.id}/cancel`, { method: 'POST', body: {}, params: { id: taken.json.booking.id } })).status).toBe(200);
    await settled();
    await runDelivery();
    await offerFreedSeats(t.db, { keys: await dataKeyRing(), siteUrl: 'https://praxis.example' });
    await runDelivery();
    const offers = (await smsFiles(t.outbox)).filter((f) => f.text.includes('früherer Termin'));
    expect(offers).toHaveLength(1);
    expect(offers[0]!.text).toMatch(/^Hausarztpraxis Düsseldorf: Ein früherer Termin ist frei: Mi 09\.01\. um 09:00 Uhr\. Wer zuerst zusagt, bekommt ihn: https:\/\/praxis\.example\/k\/\S{12}$/);
    expect(offers[0]!.text).not.toMatch(/Impfung|Grippe/);
    const code = /\/k\/(\S+)$/.exec(offers[0]!.text)![1]!;
    const hit = await call(shortLink, `/k/${code}`, { ip: '198.51.100.20' });
    expect(hit.status).toBe(302);
    expect(new URL(hit.headers.get('location')!).pathname).toBe('/termin/warteliste');
    expect(new URL(hit.headers.get('location')!).searchParams.get('offer')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

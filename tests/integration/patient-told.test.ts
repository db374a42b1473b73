/**
 * Every patient hears of every change (docs/decisions/035), through the real
 * handlers on both drivers, with the local outbox standing in for the mail
 * service (its X-Message-Id is the id the webhook takes):
 * - the mail service's webhook: credentials, bad JSON, unknown ids refused
 *   without effect; Delivery, Bounce and SpamComplaint recorded; a bounce
 *   marks the booking "bitte anrufen" until staff mark "Patient erreicht";
 *   a bounce of the practice's own address shows on the dashboard;
 * - a block over phone bookings lists who to call before it is saved and
 *   after; the cancelled bookings keep name and phone until the day's end.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import blockedCollection from '../../netlify/functions/admin-blocked-dates';
import bookedCollection from '../../netlify/functions/admin-booked-slots';
import informed from '../../netlify/functions/admin-booked-slot-informed';
import move from '../../netlify/functions/admin-booked-slot-move';
import stats from '../../netlify/functions/admin-stats';
import patients from '../../netlify/functions/admin-patients';
import audit from '../../netlify/functions/admin-audit';
import bookings from '../../netlify/functions/bookings';
import webhook from '../../netlify/functions/webhooks-postmark';
import { appointmentContacts, blockedDates, bookedSlots, cancelledBookings, emailOutbox, rateLimits } from '../../db/schema';
import { purgeEnded } from '../../src/server/appointment-contact/job.server';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { bookingRequest, testCaller } from '../helpers/patient';
import { databaseKinds, useTestBed, type TestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const CREDENTIALS = `Basic ${Buffer.from('postmark:hook-secret').toString('base64')}`;

async function snapshot(t: TestBed): Promise<string> {
  const parts = [];
  for (const table of ['email_outbox', 'booked_slots', 'cancelled_bookings', 'appointment_contacts', 'audit_log']) {
    const result = (await t.db.execute(sql.raw(`select * from ${table} order by 1`))) as unknown as { rows: unknown[] };
    parts.push(JSON.stringify(result.rows));
  }
  return parts.join('\n');
}

describe.each(databaseKinds)('patients told on %s', (kind) => {
  const t = useTestBed({
    database: kind,
    now: NOW,
    dataDir: 'patient-told-',
    env: { SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example', POSTMARK_WEBHOOK_USER: 'postmark', POSTMARK_WEBHOOK_PASSWORD: 'hook-secret' },
  });
  let admin: TestUser;
  let typeId: string;
  const api = asAdmin(() => admin);
  let serial = 0;

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    typeId = (await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 30, maxSlotsPerTime: 5 })).id;
  });

  beforeEach(async () => {
    await t.db.delete(emailOutbox);
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(appointmentContacts);
    await t.db.delete(blockedDates);
    await t.db.delete(rateLimits);
  });

  const event = (body: unknown, authorization: string | null = CREDENTIALS, raw = false) =>
    call(webhook, '/api/webhooks/postmark', {
      method: 'POST',
      body: raw ? (body as string) : body,
      headers: authorization ? { authorization } : {},
    });

  async function bookOnline(email: string, time = '09:00') {
    const res = await call(bookings, '/api/bookings', { method: 'POST', ip: `203.0.113.${++serial}`, body: bookingRequest(typeId, '2030-01-09', time, { email }) });
    expect(res.status).toBe(201);
    await settled();
    const sent = await t.db.select().from(emailOutbox).where(sql`${emailOutbox.bookingId} = ${res.json.booking.id}::uuid`);
    const providerOf = (audience: string) => sent.find((r) => r.audience === audience)!.providerId!;
    return { id: res.json.booking.id as string, reference: res.json.booking.reference as string, messageId: providerOf('patient'), practiceMessageId: providerOf('practice') };
  }

  const rowOf = async (id: string) => ((await api(bookedCollection, '/api/admin/booked-slots')).json as Array<Record<string, unknown>>).find((r) => r.id === id)!;

  it('refuses wrong or missing credentials, bad JSON and unknown ids, changing nothing', async () => {
    const booked = await bookOnline('told1@example.org');
    const before = await snapshot(t);
    const wrong = `Basic ${Buffer.from('postmark:guess').toString('base64')}`;
    expect((await event({ RecordType: 'Bounce', MessageID: booked.messageId }, null)).status).toBe(401);
    expect((await event({ RecordType: 'Bounce', MessageID: booked.messageId }, wrong)).status).toBe(401);
    expect((await event({ RecordType: 'Bounce', MessageID: booked.messageId }, `Basic ${Buffer.from('someone:hook-secret').toString('base64')}`)).status).toBe(401);
    expect((await event('{"RecordType": "Bounce", ', CREDENTIALS, true)).status).toBe(400);
    expect((await event({ MessageID: booked.messageId }, CREDENTIALS)).status).toBe(400);
    const unknown = await event({ RecordType: 'Bounce', MessageID: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(await snapshot(t)).toBe(before);
  });

  it('a bounce carrying the bounced message (control and invisible characters, 200 KB) is taken: only its type and id are read', async () => {
    const booked = await bookOnline('told7@example.org');
    const bounce = {
      RecordType: 'Bounce',
      MessageID: booked.messageId,
      Type: 'HardBounce',
      Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
      Details: 'smtp;550 5.1.1 \u001b[1m user unknown \u200b',
      Content: `Received: from …\r\n\u0000${'x'.repeat(200_000)}`,
    };
    const res = await event(bounce);
    expect(res.status).toBe(200);
    expect(await rowOf(booked.id)).toMatchObject({ patient_notice: 'bounced', needs_call: true });
  });

  it('the local outbox names each message in X-Message-Id; Delivery marks it delivered', async () => {
    const booked = await bookOnline('told2@example.org');
    // The file the local outbox wrote carries the id the webhook takes.
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === 'told2@example.org')!;
    expect(mail.headers['x-message-id']).toBe(booked.messageId);
    const [row] = await t.db.select().from(emailOutbox).where(sql`${emailOutbox.providerId} = ${booked.messageId}`);
    expect(row).toMatchObject({ kind: 'booking-confirmation', audience: 'patient', bookingId: booked.id, status: 'sent' });
    expect(await rowOf(booked.id)).toMatchObject({ patient_notice: 'sent', needs_call: false });
    expect((await event({ RecordType: 'Delivery', MessageID: booked.messageId, Recipient: 'told2@example.org' })).status).toBe(200);
    expect(await rowOf(booked.id)).toMatchObject({ patient_notice: 'delivered', needs_call: false });
    // Other record types are taken and ignored.
    expect((await event({ RecordType: 'Open', MessageID: booked.messageId })).json).toEqual({ ignored: true });
  });

  it.each(['Bounce', 'SpamComplaint'])('%s: the booking asks for a call until staff mark "Patient erreicht" (audited)', async (recordType) => {
    const booked = await bookOnline(`told-${recordType.toLowerCase()}@example.org`);
    expect((await event({ RecordType: recordType, MessageID: booked.messageId, Type: 'HardBounce' })).status).toBe(200);
    expect(await rowOf(booked.id)).toMatchObject({ patient_notice: 'bounced', needs_call: true, patient_notified: false });
    expect((await api(stats, '/api/admin/stats')).json.needsCall).toBe(1);
    // A later Delivery of the same message does not undo the call.
    await event({ RecordType: 'Delivery', MessageID: booked.messageId });
    expect(await rowOf(booked.id)).toMatchObject({ patient_notice: 'bounced', needs_call: true });

    expect(await rowOf(booked.id)).toMatchObject({ informed: null });
    vi.setSystemTime(new Date('2030-01-07T07:10:00+01:00'));
    const done = await api(informed, `/api/admin/booked-slots/${booked.id}/informed`, { method: 'PUT', body: {}, params: { id: booked.id } });
    vi.setSystemTime(NOW);
    expect(done.status).toBe(200);
    // Who marked it (the staff account's email) and when (docs/decisions/041).
    const mark = { by: admin.email, at: '2030-01-07T06:10:00.000Z' };
    expect(done.json).toMatchObject({ id: booked.id, reference: booked.reference, needs_call: false, status: 'booked', informed: mark });
    // The list answers the same later (a reload), and the day list too.
    expect(await rowOf(booked.id)).toMatchObject({ needs_call: false, patient_notice: 'bounced', informed: mark });
    const day = (await api(bookedCollection, '/api/admin/booked-slots', { query: { from: '2030-01-08', to: '2030-01-14', view: 'day-list' } })).json as Array<Record<string, unknown>>;
    expect(day.find((r) => r.id === booked.id)).toMatchObject({ informed: mark });
    expect((await api(stats, '/api/admin/stats')).json.needsCall).toBe(0);
    const entries = (await api(audit, '/api/admin/audit')).json as Array<{ action: string; label: string; entity_id: string }>;
    expect(entries.filter((e) => e.action === 'informed' && e.entity_id === booked.id)).toEqual([
      expect.objectContaining({ label: expect.stringContaining(booked.reference) }),
    ]);
    expect(JSON.stringify(entries)).not.toContain('told-');
    // Unknown booking: 404.
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await api(informed, `/api/admin/booked-slots/${unknown}/informed`, { method: 'PUT', body: {}, params: { id: unknown } })).status).toBe(404);
    // The same message bouncing again (a complaint after the bounce) changes nothing more.
    expect((await event({ RecordType: 'SpamComplaint', MessageID: booked.messageId })).status).toBe(200);
    expect(await rowOf(booked.id)).toMatchObject({ needs_call: false, informed: mark });
    // A later notice that bounces asks for a call again: the old mark is not shown.
    const moved = await api(move, `/api/admin/booked-slots/${booked.id}/move`, { method: 'POST', body: { appointment_date: '2030-01-09', appointment_time: '11:00' }, params: { id: booked.id } });
    expect(moved.status).toBe(200);
    await settled();
    const later = (await t.db.select().from(emailOutbox).where(sql`${emailOutbox.bookingId} = ${booked.id}::uuid and ${emailOutbox.audience} = 'patient'`)).find(
      (r) => r.providerId && r.providerId !== booked.messageId,
    )!;
    expect((await event({ RecordType: 'Bounce', MessageID: later.providerId, Type: 'HardBounce' })).status).toBe(200);
    expect(await rowOf(booked.id)).toMatchObject({ needs_call: true, informed: null });
  });

  it('only a real non-delivery asks for a call: an out-of-office reply, a delay or a soft bounce is noted on the message only', async () => {
    const booked = await bookOnline('told-away@example.org');
    for (const Type of ['AutoResponder', 'Transient', 'SoftBounce', 'DnsError', 'Subscribe', 'ChallengeVerification']) {
      expect((await event({ RecordType: 'Bounce', MessageID: booked.messageId, Type })).status).toBe(200);
      expect(await rowOf(booked.id)).toMatchObject({ patient_notice: 'sent', needs_call: false, patient_notified: true });
    }
    const [row] = await t.db.select().from(emailOutbox).where(sql`${emailOutbox.providerId} = ${booked.messageId}`);
    expect(row).toMatchObject({ status: 'sent', lastError: 'bounce:ChallengeVerification' });
    expect((await api(stats, '/api/admin/stats')).json.needsCall).toBe(0);
    // The mail service gave the address up (Inactive): a soft type too is then a real non-delivery.
    expect((await event({ RecordType: 'Bounce', MessageID: booked.messageId, Type: 'SoftBounce', Inactive: true })).status).toBe(200);
    expect(await rowOf(booked.id)).toMatchObject({ patient_notice: 'bounced', needs_call: true });
    // Each hard type marks its message.
    for (const Type of ['BadEmailAddress', 'ManuallyDeactivated', 'Blocked', 'SpamComplaint']) {
      const other = await bookOnline(`told-${Type.toLowerCase()}@example.org`, '10:00');
      expect((await event({ RecordType: 'Bounce', MessageID: other.messageId, Type })).status).toBe(200);
      expect(await rowOf(other.id), Type).toMatchObject({ patient_notice: 'bounced', needs_call: true });
    }
  });

  it('a bounce of the practice\'s own address shows on the dashboard until a later message reaches it', async () => {
    const booked = await bookOnline('told4@example.org');
    expect((await api(stats, '/api/admin/stats')).json.practiceMailBouncedAt).toBeNull();
    expect((await event({ RecordType: 'Bounce', MessageID: booked.practiceMessageId, Type: 'HardBounce' })).status).toBe(200);
    const after = (await api(stats, '/api/admin/stats')).json;
    expect(after.practiceMailBouncedAt).toEqual(expect.any(String));
    expect(await rowOf(booked.id)).toMatchObject({ practice_notified: false, needs_call: false });
    vi.setSystemTime(NOW.getTime() + 60_000);
    const later = await bookOnline('told5@example.org', '09:20');
    await event({ RecordType: 'Delivery', MessageID: later.practiceMessageId });
    vi.setSystemTime(NOW);
    expect((await api(stats, '/api/admin/stats')).json.practiceMailBouncedAt).toBeNull();
  });

  it('a block over phone bookings lists who to call before it is saved and after; the cancelled keep name and phone until the day ends', async () => {
    const phone = await api(bookedCollection, '/api/admin/booked-slots', {
      method: 'POST',
      body: { appointment_type_id: typeId, appointment_date: '2030-01-09', appointment_time: '12:00', ...testCaller, language: 'de' },
    });
    expect(phone.status).toBe(201);
    expect(phone.json).toMatchObject({ patient_notice: 'none', needs_call: false });
    const online = await bookOnline('told6@example.org', '12:20');
    await settled();
    const block = { date: '2030-01-09', start_time: '12:00', end_time: '13:40', reason: 'Notfall', appointment_type_id: null };
    const asked = await api(blockedCollection, '/api/admin/blocked-dates', { method: 'POST', body: block });
    expect(asked.status).toBe(409);
    expect(asked.json.bookings).toEqual([
      expect.objectContaining({ reference: phone.json.reference, will_email: false, patient: { first_name: 'Hans', last_name: 'Müller', phone: '+492117654321' } }),
      expect.objectContaining({
        reference: online.reference,
        will_email: true,
        patient: { first_name: 'Erika', last_name: 'Mustermann', phone: '+492115550123', email: 'told6@example.org' },
      }),
    ]);
    const saved = await api(blockedCollection, '/api/admin/blocked-dates', { method: 'POST', body: { ...block, bookings: 'cancel' } });
    expect(saved.status).toBe(201);
    await settled();
    expect(saved.json.cancelled).toEqual([
      { reference: phone.json.reference, patient_notified: false, channel: 'call', patient_phone: '+492117654321', patient: { first_name: 'Hans', last_name: 'Müller', phone: '+492117654321' } },
      { reference: online.reference, patient_notified: true, channel: 'email', patient: expect.objectContaining({ last_name: 'Mustermann' }) },
    ]);
    // The day list still shows both, with names and phones; the phone booking asks for a call.
    const rows = (await api(bookedCollection, '/api/admin/booked-slots', { query: { from: '2030-01-09', to: '2030-01-09', view: 'day-list' } })).json as Array<Record<string, any>>;
    const cancelled = rows.filter((r) => r.status === 'cancelled_by_practice');
    expect(cancelled.map((r) => [r.reference, r.patient?.last_name, r.patient?.phone, r.needs_call, r.patient_notice])).toEqual([
      [phone.json.reference, 'Müller', '+492117654321', true, 'none'],
      [online.reference, 'Mustermann', '+492115550123', false, 'sent'],
    ]);
    expect((await api(stats, '/api/admin/stats')).json.needsCall).toBe(1);
    // The search finds them too, cancelled, with the call still owed.
    const found = await api(patients, '/api/admin/patients', { query: { q: 'Mueller' } });
    expect(found.json).toEqual([
      expect.objectContaining({ reference: phone.json.reference, status: 'cancelled_by_practice', needs_call: true, phone: '+492117654321', last_name: 'Müller' }),
    ]);
    // "Patient erreicht" on the cancelled phone booking.
    const done = await api(informed, `/api/admin/booked-slots/${phone.json.id}/informed`, { method: 'PUT', body: {}, params: { id: phone.json.id } });
    expect(done.json).toMatchObject({ status: 'cancelled_by_practice', needs_call: false, informed: { by: admin.email } });
    const after = (await api(bookedCollection, '/api/admin/booked-slots', { query: { from: '2030-01-09', to: '2030-01-09', view: 'day-list' } })).json as Array<Record<string, any>>;
    expect(after.find((r) => r.reference === phone.json.reference)).toMatchObject({ needs_call: false, informed: { by: admin.email, at: done.json.informed.at } });
    // The tombstones keep the sealed contacts (nothing in clear) until the end of the appointment's day, then go.
    const kept = async () => (await t.db.select().from(cancelledBookings)).filter((r) => r.contactSealed !== null);
    expect(await kept()).toHaveLength(2);
    expect(JSON.stringify(await t.db.select().from(cancelledBookings))).not.toMatch(/Müller|Mustermann|0211|told6/);
    await purgeEnded(t.db, new Date('2030-01-09T22:59:00Z'));
    expect(await kept()).toHaveLength(2);
    await purgeEnded(t.db, new Date('2030-01-09T23:00:00Z'));
    expect(await t.db.select().from(cancelledBookings)).toHaveLength(0);
  });
});

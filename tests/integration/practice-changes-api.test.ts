/**
 * The practice's changes (docs/decisions/021-appointment-contact-and-practice-changes.md,
 * docs/decisions/020-reception.md) through the real handlers, on both drivers:
 * staff "Absagen" (email with METHOD:CANCEL, tombstone, 410 on the link),
 * "Verschieben" (email with a higher SEQUENCE, reminder follows), staff
 * bookings and the staff availability under staff rules with the refusal
 * reasons, and bad input that changes nothing.
 */
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import staffAvailability from '../../netlify/functions/admin-availability';
import bookedItem from '../../netlify/functions/admin-booked-slot';
import cancelFn from '../../netlify/functions/admin-booked-slot-cancel';
import moveFn from '../../netlify/functions/admin-booked-slot-move';
import bookedCollection from '../../netlify/functions/admin-booked-slots';
import bookings from '../../netlify/functions/bookings';
import cancelLink from '../../netlify/functions/bookings-cancel';
import reschedule from '../../netlify/functions/bookings-reschedule';
import { appointmentContacts, auditLog, blockedDates, bookedSlots, cancelledBookings, rateLimits } from '../../db/schema';
import { practice } from '../../src/lib/practice';
import { purgeEnded } from '../../src/server/appointment-contact/job.server';
import { reminderSendAt } from '../../src/lib/reminder-time';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { icsOf } from '../helpers/ics';
import { testPatient, testCaller } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const patient = { ...testPatient, first_name: 'Zerberus', last_name: 'Quastenflosser', email: 'zq@example.org' };

describe.each(databaseKinds)('practice-side changes on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'practice-changes-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  let checkUp: string;
  const api = asAdmin(() => admin);
  const logs: string[] = [];

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    const type = await addBookableType(t.db, { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 });
    checkUp = type.id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(blockedDates);
    await t.db.delete(rateLimits);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  /** An online booking; answers its id, reference and the link's token. */
  async function bookOnline(overrides: Record<string, unknown> = {}) {
    const res = await call(bookings, '/api/bookings', {
      method: 'POST',
      body: { appointment_type_id: checkUp, appointment_date: '2030-01-08', appointment_time: '09:00', ...patient, ...overrides },
    });
    expect(res.status).toBe(201);
    const to = (overrides.email as string | undefined) ?? patient.email;
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === to);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    return { id: res.json.booking.id as string, reference: res.json.booking.reference as string, token: mail ? /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]! : '' };
  }
  let signIns = 0;
  /** Moves the clock; a new admin signs in (the old session's access token would have expired). */
  async function later(iso: string) {
    vi.setSystemTime(new Date(iso));
    admin = await createAdmin(t.db, { email: `later-${++signIns}@praxis.example` });
  }
  const staffBook = (body: Record<string, unknown>) => api(bookedCollection, '/api/admin/booked-slots', { method: 'POST', body: { appointment_type_id: checkUp, ...testCaller, ...body } });
  const cancel = (id: string, body: unknown = {}) => api(cancelFn, `/api/admin/booked-slots/${id}/cancel`, { method: 'POST', params: { id }, body });
  const move = (id: string, body: unknown) => api(moveFn, `/api/admin/booked-slots/${id}/move`, { method: 'POST', params: { id }, body });
  const list = async () => (await api(bookedCollection, '/api/admin/booked-slots')).json as Array<Record<string, unknown>>;
  const free = async (date: string) =>
    ((await api(staffAvailability, '/api/admin/availability', { query: { type: checkUp, from: date, to: date } })).json.days[0]?.times ?? []) as string[];

  describe('"Absagen"', () => {
    it.each([
      ['de', 'Terminabsage der Praxis: Check-up am 08.01.2030 um 09:00', 'Guten Tag Zerberus Quastenflosser,', 'Nachricht der Praxis', 'https://praxis.example/termin'],
      ['en', 'The practice has cancelled your appointment: Health check on Tue 8 Jan 2030 at 09:00', 'Dear Zerberus Quastenflosser,', 'Message from the practice', 'https://praxis.example/en/termin'],
    ] as const)('%s patient: an email in the booking\'s language with METHOD:CANCEL; a tombstone; the link answers 410', async (language, subject, greeting, messageLabel, rebook) => {
      const booked = await bookOnline({ language, reminder: true });
      const message = 'Die Ärztin ist erkrankt.\nBitte rufen Sie uns an. <b>';
      const res = await cancel(booked.id, { message });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ id: booked.id, reference: booked.reference, patient_notified: true, patient_phone: null });

      const [mail, ...others] = await readOutbox(t.outbox);
      expect(others).toHaveLength(0);
      expect(mail!.headers.to).toBe(patient.email);
      expect(mail!.subject).toBe(subject);
      for (const part of [greeting, booked.reference, messageLabel, 'Die Ärztin ist erkrankt.', practice.phone, rebook]) expect(mail!.text).toContain(part);
      expect(mail!.html).toContain('&lt;b&gt;');
      expect(icsOf(mail!)).toMatchObject({ method: 'CANCEL', uid: `${booked.id}@praxis.example`, sequence: 1, status: 'CANCELLED', start: '2030-01-08T09:00' });

      // The seat and the contact are gone; the tombstone holds no contact; the time is free again.
      expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
      expect(await t.db.select().from(appointmentContacts)).toHaveLength(0);
      expect(await free('2030-01-08')).toContain('09:00');
      const [tombstone] = await t.db.select().from(cancelledBookings);
      expect(tombstone).toMatchObject({ id: booked.id, reference: booked.reference, patientNotified: true, source: 'online' });

      // The list shows it struck through as cancelled, told.
      expect((await list()).find((r) => r.id === booked.id)).toMatchObject({ status: 'cancelled_by_practice', patient_notified: true, reference: booked.reference });
      // The patient's link: 410 cancelled-by-practice with what it was, for GET, POST and a move.
      for (const res410 of [
        await call(cancelLink, '/api/bookings/cancel', { query: { token: booked.token } }),
        await call(cancelLink, '/api/bookings/cancel', { method: 'POST', body: { token: booked.token } }),
        await call(reschedule, '/api/bookings/reschedule', { method: 'POST', body: { token: booked.token, appointment_date: '2030-01-09', appointment_time: '09:00' } }),
      ]) {
        expect(res410.status).toBe(410);
        expect(res410.json).toMatchObject({
          type: 'cancelled-by-practice',
          appointment_date: '2030-01-08',
          appointment_time: '09:00',
          type_name: 'Check-up',
          type_name_en: 'Health check',
          reference: booked.reference,
        });
      }
      // Once the date has passed: unknown (404), and the job's purge removes the tombstone.
      await later('2030-01-09T07:00:00+01:00');
      expect((await call(cancelLink, '/api/bookings/cancel', { query: { token: booked.token } })).status).toBe(404);
      expect((await list()).find((r) => r.id === booked.id)).toBeDefined();
      expect(await purgeEnded(t.db, new Date('2030-01-09T07:00:00+01:00'))).toMatchObject({ tombstones: 1 });
      expect((await list()).find((r) => r.id === booked.id)).toBeUndefined();
      await later('2030-01-07T07:00:00+01:00');

      // The audit row says cancel, without the message.
      const audit = await t.db.select().from(auditLog);
      expect(audit.map((a) => [a.action, a.entity, a.entityId])).toContainEqual(['cancel', 'booked-slot', booked.id]);
      const dump = JSON.stringify(await t.db.execute(sql`select row_to_json(x)::text from audit_log x`)) + JSON.stringify(await t.db.select().from(cancelledBookings));
      expect(dump).not.toContain('erkrankt');
      expect(logs.join('\n')).not.toContain('erkrankt');
      expect(logs.join('\n')).not.toContain(patient.email);
    });

    it('a phone booking, or an email that fails, is not notified: staff are told to call, nothing is undone', async () => {
      const phone = await staffBook({ appointment_date: '2030-01-08', appointment_time: '10:00' });
      expect(phone.status).toBe(201);
      const res = await cancel(phone.json.id);
      expect(res.json).toEqual({ id: phone.json.id, reference: phone.json.reference, patient_notified: false, patient_phone: '+492117654321' }); // stored and answered in E.164 (docs/decisions/043-sms-second-channel.md)
      expect(await readOutbox(t.outbox)).toHaveLength(0);

      // An address the mail service refuses: the notice is queued (the answer says so), then fails after it.
      const failing = await bookOnline({ email: 'erika@praxis.invalid' });
      const failed = await cancel(failing.id, { message: 'Krank' });
      expect(failed.status).toBe(200);
      expect(failed.json.patient_notified).toBe(true);
      await settled();
      expect(logs.join('\n')).toMatch(/email [0-9a-f-]+ \(notice-cancelled-by-practice\) failed: UndeliverableError/);
      expect(logs.join('\n')).not.toContain('erika@praxis.invalid');
      expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
      const rows = await list();
      expect(rows.map((r) => [r.reference, r.status, r.patient_notified, r.needs_call, r.patient_notice])).toEqual(
        expect.arrayContaining([
          [phone.json.reference, 'cancelled_by_practice', false, true, 'none'],
          [failing.reference, 'cancelled_by_practice', false, true, 'failed'],
        ]),
      );
    });

    it('DELETE is the same cancellation without a message', async () => {
      const booked = await bookOnline();
      const res = await api(bookedItem, `/api/admin/booked-slots/${booked.id}`, { method: 'DELETE', params: { id: booked.id } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ id: booked.id, reference: booked.reference, patient_notified: true, patient_phone: null });
      const [mail] = await readOutbox(t.outbox);
      expect(mail!.text).not.toContain('Nachricht der Praxis');
      expect(icsOf(mail!).method).toBe('CANCEL');
    });

    it('bad input: unknown id 404, already cancelled or begun 409, control or bidi characters or over 500 characters 400 naming message; nothing changes', async () => {
      const booked = await bookOnline();
      for (const id of ['6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11', 'nope']) expect((await cancel(id)).status).toBe(404);
      for (const message of ['Krank\u202e', 'a\u0000b', 'x'.repeat(501), 42, '=?utf-8?q?x?=', '\u200eKrank', 'Krank\ufeff', 'Kr\uffffank', '\u200f']) {
        expect(errorsOf(await cancel(booked.id, { message }))).toHaveProperty('message');
      }
      expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
      expect(await t.db.select().from(cancelledBookings)).toHaveLength(0);
      expect(await readOutbox(t.outbox)).toHaveLength(0);
      // 500 characters are fine.
      expect((await cancel(booked.id, { message: 'ä'.repeat(500) })).status).toBe(200);
      const again = await cancel(booked.id);
      expect(again.status).toBe(409);
      // Begun: 409, the booking stays.
      const today = await bookOnline({ appointment_date: '2030-01-07', appointment_time: '09:00', email: 'today@example.org' });
      await later('2030-01-07T09:00:00+01:00');
      const begun = await cancel(today.id);
      expect(begun.status).toBe(409);
      expect(begun.json.type).toBe('too-late');
      expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
    });
  });

  describe('"Verschieben"', () => {
    it('moves under staff rules (beyond the online window), emails the new time with the same UID and a higher SEQUENCE; the reminder follows; audited', async () => {
      const booked = await bookOnline({ reminder: true, language: 'en' });
      // 2030-03-05 (Tuesday) is 57 days ahead: beyond the type's 14 online days, within staff's 365.
      const res = await move(booked.id, { appointment_date: '2030-03-05', appointment_time: '11:20' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        booking: { id: booked.id, appointment_type_id: checkUp, appointment_date: '2030-03-05', appointment_time: '11:20', reference: booked.reference },
        patient_notified: true,
        patient_phone: null,
      });
      const [mail] = await readOutbox(t.outbox);
      expect(mail!.subject).toBe('Your appointment has been moved: Health check now on Tue 5 Mar 2030 at 11:20');
      expect(mail!.text).toContain('Tuesday, 5 March 2030');
      expect(mail!.text).toContain(`https://praxis.example/en/termin/absagen?token=${booked.token}`);
      expect(icsOf(mail!)).toMatchObject({ method: 'REQUEST', uid: `${booked.id}@praxis.example`, sequence: 1, start: '2030-03-05T11:20' });
      const [contact] = await t.db.select().from(appointmentContacts);
      expect(contact!.remindAt!.toISOString()).toBe(reminderSendAt('2030-03-05', '11:20').toISOString());
      expect((await t.db.select().from(auditLog)).map((a) => [a.action, a.entityId])).toContainEqual(['move', booked.id]);
      expect((await list())[0]).toMatchObject({ status: 'booked', patient_notified: true, appointment_date: '2030-03-05' });
      // Moved again: SEQUENCE 2; the link shows the new time.
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      expect((await move(booked.id, { appointment_date: '2030-03-06', appointment_time: '08:20' })).status).toBe(200);
      expect(icsOf((await readOutbox(t.outbox))[0]!).sequence).toBe(2);
      expect((await call(cancelLink, '/api/bookings/cancel', { query: { token: booked.token } })).json).toMatchObject({ appointment_date: '2030-03-06', appointment_time: '08:20' });
    });

    it('409 slot-unavailable with its reason (not-a-start-time, blocked, full, past, same-time); the booking stays', async () => {
      const booked = await bookOnline();
      const other = await staffBook({ appointment_date: '2030-01-09', appointment_time: '09:00' });
      expect(other.status).toBe(201);
      await t.db.insert(blockedDates).values({ date: '2030-01-10', startTime: '10:00', endTime: '11:00' });
      const cases: Array<[string, string, string]> = [
        ['2030-01-08', '09:10', 'not-a-start-time'],
        ['2030-01-12', '09:00', 'not-a-start-time'], // Saturday: no window
        ['2030-01-10', '10:20', 'blocked'],
        ['2030-01-09', '09:00', 'full'],
        ['2030-01-04', '09:00', 'past'],
        ['2030-01-08', '09:00', 'same-time'],
      ];
      for (const [date, time, reason] of cases) {
        const res = await move(booked.id, { appointment_date: date, appointment_time: time });
        expect(res.status, `${date} ${time}`).toBe(409);
        expect(res.json, `${date} ${time}`).toMatchObject({ type: 'slot-unavailable', reason });
      }
      // Today, a time that has passed.
      await later('2030-01-07T10:05:00+01:00');
      expect((await move(booked.id, { appointment_date: '2030-01-07', appointment_time: '09:00' })).json).toMatchObject({ reason: 'past' });
      expect(errorsOf(await move(booked.id, { appointment_date: '2031-01-08', appointment_time: '09:00' }))).toEqual({ appointment_date: ['admin.errors.tooFarAhead'] });
      expect(errorsOf(await move(booked.id, { appointment_date: '2030-02-30', appointment_time: '9' }))).toHaveProperty('appointment_time');
      expect((await move('6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11', { appointment_date: '2030-01-09', appointment_time: '10:00' })).status).toBe(404);
      const mine = (await t.db.select().from(bookedSlots)).find((b) => b.id === booked.id);
      expect(mine).toMatchObject({ appointmentDate: '2030-01-08', appointmentTime: '09:00:00', sequence: 0 });
      expect(await readOutbox(t.outbox)).toHaveLength(0);
    });

    it('a phone booking moves too: not notified, staff call', async () => {
      const phone = await staffBook({ appointment_date: '2030-01-08', appointment_time: '10:00' });
      const res = await move(phone.json.id, { appointment_date: '2030-01-09', appointment_time: '10:00' });
      expect(res.status).toBe(200);
      expect(res.json.patient_notified).toBe(false);
      expect((await list())[0]).toMatchObject({ patient_notified: false, appointment_date: '2030-01-09' });
    });
  });

  describe('"Termin eintragen" and the staff availability', () => {
    it('staff availability: any date up to 365 days ahead with its free times, never past, blocked or full; admins only; 400 for a bad range', async () => {
      await t.db.insert(blockedDates).values({ date: '2030-03-06' });
      expect((await staffBook({ appointment_date: '2030-03-05', appointment_time: '08:20' })).status).toBe(201);
      const res = await api(staffAvailability, '/api/admin/availability', { query: { type: checkUp, from: '2030-03-04', to: '2030-03-10' } });
      expect(res.status).toBe(200);
      expect(res.json.days.map((d: { date: string }) => d.date)).toEqual(['2030-03-04', '2030-03-05', '2030-03-07', '2030-03-08']);
      expect(res.json.days[1].times).not.toContain('08:20');
      expect(res.json.days[1].times).toContain('08:40');
      const today = await api(staffAvailability, '/api/admin/availability', { query: { type: checkUp, from: '2030-01-01', to: '2030-01-07' } });
      expect(today.json.days).toEqual([{ date: '2030-01-07', times: expect.arrayContaining(['08:20', '13:20']) }]);
      const horizon = await api(staffAvailability, '/api/admin/availability', { query: { type: checkUp, from: '2031-01-01', to: '2031-01-10' } });
      expect(horizon.json.days.map((d: { date: string }) => d.date).at(-1)).toBe('2031-01-07');
      expect((await call(staffAvailability, '/api/admin/availability', { query: { type: checkUp, from: '2030-03-04', to: '2030-03-10' } })).status).toBe(401);
      expect(errorsOf(await api(staffAvailability, '/api/admin/availability', { query: { type: checkUp, from: '2030-03-04', to: '2030-06-10' } }))).toHaveProperty('to');
      expect(errorsOf(await api(staffAvailability, '/api/admin/availability', { query: { type: 'x', from: '2030-03-04', to: '2030-03-04' } }))).toHaveProperty('type');
    });

    it('books up to 365 days ahead; refuses past, blocked, full and not-a-start-time with the reason; 366 days is 400', async () => {
      expect((await staffBook({ appointment_date: '2031-01-07', appointment_time: '08:20' })).status).toBe(201);
      expect(errorsOf(await staffBook({ appointment_date: '2031-01-08', appointment_time: '08:20' }))).toEqual({ appointment_date: ['admin.errors.tooFarAhead'] });
      await t.db.insert(blockedDates).values({ date: '2030-01-10' });
      expect((await staffBook({ appointment_date: '2030-01-09', appointment_time: '09:00' })).status).toBe(201);
      for (const [date, time, reason] of [
        ['2030-01-06', '09:00', 'past'],
        ['2030-01-10', '09:00', 'blocked'],
        ['2030-01-09', '09:00', 'full'],
        ['2030-01-09', '09:05', 'not-a-start-time'],
        ['2030-01-13', '09:00', 'not-a-start-time'],
      ] as const) {
        const res = await staffBook({ appointment_date: date, appointment_time: time });
        expect(res.status, `${date} ${time}`).toBe(409);
        expect(res.json, `${date} ${time}`).toMatchObject({ type: 'slot-unavailable', reason });
      }
      await later('2030-01-07T10:05:00+01:00');
      expect((await staffBook({ appointment_date: '2030-01-07', appointment_time: '10:00' })).json).toMatchObject({ reason: 'past' });
      expect(await t.db.select().from(bookedSlots)).toHaveLength(2);
    });
  });
});

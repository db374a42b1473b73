/**
 * Reception's changes with a message, begun appointments under blocks, and
 * weekly windows that never overlap (docs/decisions/030), through the real
 * handlers on both drivers:
 * - a block that cancels bookings and "Verschieben" carry an optional
 *   message to the patient (≤ 500, the text rules of "Absagen"), sent as
 *   typed and never stored or audited;
 * - a block never cancels an appointment that has begun or passed: it is
 *   listed as begun and kept; blocks starting before today are refused;
 * - the covered bookings name the language of the patient's email;
 * - two windows of one type on one weekday that overlap: 409 naming the other.
 */
import { rm } from 'node:fs/promises';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import blockedItem from '../../netlify/functions/admin-blocked-date';
import blockedCollection from '../../netlify/functions/admin-blocked-dates';
import bookedCollection from '../../netlify/functions/admin-booked-slots';
import moveFn from '../../netlify/functions/admin-booked-slot-move';
import timeSlots from '../../netlify/functions/admin-time-slots';
import timeSlot from '../../netlify/functions/admin-time-slot';
import bookings from '../../netlify/functions/bookings';
import { appointmentTimeSlots, auditLog, blockedDates, bookedSlots, cancelledBookings, rateLimits } from '../../db/schema';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { testCaller, testPatient } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const MESSAGE = 'Frau Dr. Muster ist krank.\nBitte rufen Sie uns für einen neuen Termin an.';

describe.each(databaseKinds)('reception changes on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'reception-changes-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  let checkUp: string;
  const api = asAdmin(() => admin);
  const logs: string[] = [];

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    checkUp = (await addBookableType(t.db, { name: 'Check-up', nameEn: 'Check-up EN', description: 'Vorsorge', maxAdvanceDays: 30 })).id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(blockedDates);
    await t.db.delete(rateLimits);
    await t.db.delete(auditLog);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    logs.length = 0;
    captureConsole(logs);
  });

  let serial = 0;
  async function online(date: string, time: string, language: 'de' | 'en' = 'de') {
    const res = await call(bookings, '/api/bookings', {
      method: 'POST',
      ip: `192.0.2.${++serial % 250}`,
      body: { ...testPatient, language, email: `reception${++serial}@example.org`, appointment_type_id: checkUp, appointment_date: date, appointment_time: time },
    });
    expect(res.status).toBe(201);
    return res.json.booking as { id: string; reference: string };
  }
  async function phone(date: string, time: string, overrides: Record<string, unknown> = {}) {
    const res = await api(bookedCollection, '/api/admin/booked-slots', { method: 'POST', body: { ...testCaller, ...overrides, appointment_type_id: checkUp, appointment_date: date, appointment_time: time } });
    expect(res.status).toBe(201);
    return res.json as { id: string; reference: string };
  }
  const block = (body: Record<string, unknown>) => api(blockedCollection, '/api/admin/blocked-dates', { method: 'POST', body });
  const move = (id: string, body: unknown) => api(moveFn, `/api/admin/booked-slots/${id}/move`, { method: 'POST', params: { id }, body });
  /** Everything the database keeps, as one string: a message must appear nowhere in it. */
  const stored = async () =>
    JSON.stringify([
      await t.db.select().from(auditLog),
      await t.db.select().from(blockedDates),
      await t.db.select().from(bookedSlots),
      await t.db.select().from(cancelledBookings),
    ]);
  /** The clock moves on: a fresh session (the access token is short-lived). */
  async function at(instant: string) {
    vi.setSystemTime(new Date(instant));
    admin = await createAdmin(t.db, { email: `empfang${++serial}@example.org` });
  }

  describe('a message to the patient', () => {
    it('a block that cancels sends each patient the message as typed, in their language; nothing stores, audits or logs it', async () => {
      const de = await online('2030-01-08', '09:00', 'de');
      const en = await online('2030-01-08', '10:00', 'en');
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      const res = await block({ date: '2030-01-08', reason: 'Krankheit', bookings: 'cancel', message: MESSAGE });
      expect(res.status).toBe(201);
      expect(res.json.cancelled).toEqual([
        expect.objectContaining({ reference: de.reference, patient_notified: true }),
        expect.objectContaining({ reference: en.reference, patient_notified: true }),
      ]);
      expect(res.json.kept).toEqual([]);
      const mails = await readOutbox(t.outbox);
      expect(mails).toHaveLength(2);
      const german = mails.find((m) => m.text.includes(de.reference))!;
      const english = mails.find((m) => m.text.includes(en.reference))!;
      expect(german.text).toContain(`Nachricht der Praxis:\n${MESSAGE}`);
      expect(german.html).toContain('Frau Dr. Muster ist krank.<br>Bitte rufen Sie uns');
      expect(english.text).toContain(MESSAGE);
      expect(english.subject).toMatch(/^[A-Z][a-z]/);
      expect(english.subject).not.toMatch(/Terminabsage/);
      expect(await stored()).not.toContain('krank');
      expect(logs.join('\n')).not.toContain('krank');
    });

    it('"Verschieben" sends the message with the new time; nothing stores or audits it', async () => {
      const a = await online('2030-01-08', '09:00');
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      const res = await move(a.id, { appointment_date: '2030-01-09', appointment_time: '10:00', message: MESSAGE });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ booking: { appointment_date: '2030-01-09', appointment_time: '10:00' }, patient_notified: true });
      const [mail] = await readOutbox(t.outbox);
      expect(mail!.text).toContain(`Nachricht der Praxis:\n${MESSAGE}`);
      expect(mail!.text).toContain('Neues Datum: Mittwoch, 9. Januar 2030');
      expect(await stored()).not.toContain('krank');
      // Without a message the email has none.
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      expect((await move(a.id, { appointment_date: '2030-01-10', appointment_time: '10:00' })).status).toBe(200);
      expect((await readOutbox(t.outbox))[0]!.text).not.toContain('Nachricht der Praxis');
    });

    it.each([
      ['longer than 500 characters', 'x'.repeat(501), 'admin.errors.tooLong'],
      ['a bidi override', 'Bitte \u202Eanrufen', 'admin.errors.invalidCharacters'],
      ['a control character', 'Bitte\u0007 anrufen', 'admin.errors.invalidCharacters'],
      ['an encoded word', '=?utf-8?q?Hallo?=', 'admin.errors.invalidCharacters'],
    ])('a message %s is refused with 400 naming it, on a block and on a move, and changes nothing', async (_, message, key) => {
      const a = await online('2030-01-08', '09:00');
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      expect(errorsOf(await block({ date: '2030-01-08', bookings: 'cancel', message }))).toEqual({ message: [key] });
      expect(errorsOf(await move(a.id, { appointment_date: '2030-01-09', appointment_time: '10:00', message }))).toEqual({ message: [key] });
      expect((await t.db.select().from(bookedSlots)).map((b) => [b.id, b.appointmentDate])).toEqual([[a.id, '2030-01-08']]);
      expect(await t.db.select().from(blockedDates)).toHaveLength(0);
      expect(await readOutbox(t.outbox)).toHaveLength(0);
    });
  });

  it("the list names the language of each patient's emails (null: no email goes); the contact's values only in `patient`", async () => {
    const en = await online('2030-01-08', '09:00', 'en');
    const de = await online('2030-01-08', '10:00', 'de');
    const byPhone = await phone('2030-01-08', '11:00');
    const res = await api(bookedCollection, '/api/admin/booked-slots', { query: { from: '2030-01-08', to: '2030-01-08' } });
    expect(res.status).toBe(200);
    expect(res.json.map((s: { id: string; language: string | null }) => [s.id, s.language])).toEqual([
      [en.id, 'en'],
      [de.id, 'de'],
      [byPhone.id, null],
    ]);
    // Staff lists carry the patient's details (docs/decisions/025-patient-details-for-staff.md), under `patient` only.
    const onlinePatient = { first_name: 'Erika', last_name: 'Mustermann', birth_date: '1964-08-12', phone: '+492115550123' };
    expect(res.json.map((s: { patient: unknown }) => s.patient)).toEqual([
      { ...onlinePatient, email: expect.stringMatching(/^reception\d+@example\.org$/), language: 'en' },
      { ...onlinePatient, email: expect.stringMatching(/^reception\d+@example\.org$/), language: 'de' },
      { first_name: 'Hans', last_name: 'Müller', birth_date: null, phone: '+492117654321', email: null, language: 'de' },
    ]);
    const withoutPatient = res.json.map(({ patient: _patient, ...rest }: { patient: unknown }) => rest);
    expect(JSON.stringify(withoutPatient)).not.toMatch(/Erika|Mustermann|Hans|Müller|1964|5550123|7654321|reception\d+@/);
  });

  describe('begun appointments under a block', () => {
    it('409 has-bookings marks begun ones and names each email language (null for a phone booking)', async () => {
      const early = await online('2030-01-07', '08:20', 'en');
      const later = await online('2030-01-07', '11:00', 'de');
      const byPhone = await phone('2030-01-07', '12:00');
      // A caller who gave an email gets the emails like an online patient (docs/decisions/025-patient-details-for-staff.md).
      const byPhoneWithEmail = await phone('2030-01-07', '12:20', { email: 'caller@example.org', language: 'en' });
      await at('2030-01-07T09:00:00+01:00');
      const res = await block({ date: '2030-01-07' });
      expect(res.status).toBe(409);
      expect(res.json.bookings).toEqual([
        expect.objectContaining({ id: early.id, reference: early.reference, appointment_date: '2030-01-07', appointment_time: '08:20', type_name: 'Check-up', begun: true, language: 'en' }),
        expect.objectContaining({ id: later.id, reference: later.reference, appointment_date: '2030-01-07', appointment_time: '11:00', type_name: 'Check-up', begun: false, language: 'de' }),
        expect.objectContaining({ id: byPhone.id, reference: byPhone.reference, appointment_date: '2030-01-07', appointment_time: '12:00', type_name: 'Check-up', begun: false, language: null }),
        expect.objectContaining({ id: byPhoneWithEmail.id, reference: byPhoneWithEmail.reference, appointment_date: '2030-01-07', appointment_time: '12:20', type_name: 'Check-up', begun: false, language: 'en' }),
      ]);
      // An email will go exactly where a language is named; the phone booking without one needs a call.
      expect(res.json.bookings.map((b: { will_email: boolean }) => b.will_email)).toEqual([true, true, false, true]);
    });

    it('"cancel" keeps an appointment that has begun (listed as kept, no email) and cancels the rest', async () => {
      const early = await online('2030-01-07', '08:20');
      const later = await online('2030-01-07', '11:00');
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      await at('2030-01-07T09:00:00+01:00');
      const res = await block({ date: '2030-01-07', bookings: 'cancel', message: MESSAGE });
      expect(res.status).toBe(201);
      expect(res.json.cancelled).toEqual([expect.objectContaining({ reference: later.reference, patient_notified: true })]);
      expect(res.json.kept).toEqual([{ id: early.id, reference: early.reference, appointment_date: '2030-01-07', appointment_time: '08:20', type_name: 'Check-up' }]);
      expect((await t.db.select().from(bookedSlots)).map((b) => b.id)).toEqual([early.id]);
      expect((await t.db.select().from(cancelledBookings)).map((b) => b.id)).toEqual([later.id]);
      const mails = await readOutbox(t.outbox);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(later.reference);
      // No audit row claims the begun one was cancelled.
      expect((await t.db.select().from(auditLog)).filter((r) => r.action === 'cancel').map((r) => r.entityId)).toEqual([later.id]);
    });

    it('an appointment long past (13 hours after its start) is kept too', async () => {
      const early = await online('2030-01-07', '08:20');
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      await at('2030-01-07T21:20:00+01:00');
      const res = await block({ date: '2030-01-07', bookings: 'cancel' });
      expect(res.status).toBe(201);
      expect(res.json.cancelled).toEqual([]);
      expect(res.json.kept.map((b: { id: string }) => b.id)).toEqual([early.id]);
      expect((await t.db.select().from(bookedSlots)).map((b) => b.id)).toEqual([early.id]);
      expect(await readOutbox(t.outbox)).toHaveLength(0);
    });

    it('a block starting before today is refused with 400 naming the date, new or edited; today is fine', async () => {
      expect(errorsOf(await block({ date: '2030-01-06', bookings: 'cancel' }))).toEqual({ date: ['admin.errors.blockInPast'] });
      expect(errorsOf(await block({ date: '2030-01-06', end_date: '2030-01-09' }))).toEqual({ date: ['admin.errors.blockInPast'] });
      expect(await t.db.select().from(blockedDates)).toHaveLength(0);
      const today = await block({ date: '2030-01-07', reason: 'Fortbildung' });
      expect(today.status).toBe(201);
      const id = today.json.id as string;
      const put = await api(blockedItem, `/api/admin/blocked-dates/${id}`, { method: 'PUT', params: { id }, body: { date: '2029-12-31' } });
      expect(errorsOf(put)).toEqual({ date: ['admin.errors.blockInPast'] });
      expect((await t.db.select().from(blockedDates)).map((b) => b.date)).toEqual(['2030-01-07']);
    });
  });

  describe('weekly windows of one type never overlap', () => {
    const post = (body: Record<string, unknown>) => api(timeSlots, '/api/admin/time-slots', { method: 'POST', body });
    const windowsOn = async (day: number) =>
      (await t.db.select().from(appointmentTimeSlots))
        .filter((w) => w.appointmentTypeId === checkUp && w.dayOfWeek === day)
        .map((w) => `${w.startTime.slice(0, 5)}-${w.endTime.slice(0, 5)}`)
        .sort();

    it('409 window-overlap names the window it meets; touching windows and other types are fine; nothing is saved', async () => {
      // The fixture gave the type 08:20–13:40 on Monday to Friday.
      const res = await post({ appointment_type_id: checkUp, days_of_week: [6, 1], start_time: '13:00', end_time: '15:00' });
      expect(res.status).toBe(409);
      expect(res.json.type).toBe('window-overlap');
      expect(res.json.overlap).toMatchObject({ appointment_type_id: checkUp, type_name: 'Check-up', day_of_week: 1, start_time: '08:20', end_time: '13:40' });
      expect(await windowsOn(6)).toEqual([]);
      expect(await windowsOn(1)).toEqual(['08:20-13:40']);

      expect((await post({ appointment_type_id: checkUp, day_of_week: 1, start_time: '13:40', end_time: '16:00' })).status).toBe(201);
      expect((await post({ appointment_type_id: checkUp, day_of_week: 1, start_time: '07:00', end_time: '08:20' })).status).toBe(201);
      expect(await windowsOn(1)).toEqual(['07:00-08:20', '08:20-13:40', '13:40-16:00']);
      const other = await addBookableType(t.db, { name: 'Impfung', description: 'Impfen' }, { days: [0] });
      expect((await post({ appointment_type_id: other.id, day_of_week: 1, start_time: '09:00', end_time: '10:00' })).status).toBe(201);
    });

    it('an edit that would overlap another window of its type is refused; an edit of the window itself is fine', async () => {
      const created = await post({ appointment_type_id: checkUp, day_of_week: 6, start_time: '09:00', end_time: '12:00' });
      expect(created.status).toBe(201);
      const id = created.json.id as string;
      const put = (body: Record<string, unknown>) => api(timeSlot, `/api/admin/time-slots/${id}`, { method: 'PUT', params: { id }, body });
      expect((await put({ appointment_type_id: checkUp, day_of_week: 6, start_time: '08:00', end_time: '12:30' })).status).toBe(200);
      const refused = await put({ appointment_type_id: checkUp, day_of_week: 2, start_time: '08:00', end_time: '09:00' });
      expect(refused.status).toBe(409);
      expect(refused.json).toMatchObject({ type: 'window-overlap', overlap: { day_of_week: 2, start_time: '08:20', end_time: '13:40' } });
      expect(await windowsOn(6)).toEqual(['08:00-12:30']);
    });
  });
});

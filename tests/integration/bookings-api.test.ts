import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import availability from '../../netlify/functions/availability';
import bookings from '../../netlify/functions/bookings';
import cancel from '../../netlify/functions/bookings-cancel';
import { blockedDates, bookedSlots, cancelledBookings, rateLimits } from '../../db/schema';
import { listBookedSlots } from '../../src/server/admin/booked-slots.server';
import { purgeEnded } from '../../src/server/appointment-contact/job.server';
import { call, settled } from '../helpers/http';
import { readOutbox } from '../helpers/eml';
import { databaseKinds, useTestBed, type TestBed } from '../setup/test-bed';
import { insertBooking } from '../../src/server/bookings/slot-sql.server';
import { captureConsole } from '../helpers/console-capture';
import { testPatient } from '../helpers/patient';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin: the whole week lies ahead.
const NOW = new Date('2030-01-07T07:00:00+01:00');

const patient = { ...testPatient, email: 'erika.mustermann@example.org' };

async function rowsAsText(t: TestBed): Promise<string> {
  const tables = ['appointment_types', 'appointment_time_slots', 'booked_slots', 'blocked_dates', 'inventory_items', 'users', 'sessions', 'login_attempts', 'rate_limits'];
  const out: string[] = [];
  for (const table of tables) {
    const res = await t.db.execute(sql.raw(`select row_to_json(x)::text as j from ${table} x`));
    out.push(...(res as unknown as { rows: Array<{ j: string }> }).rows.map((r) => r.j));
  }
  return out.join('\n');
}

describe.each(databaseKinds)('booking API on %s', (kind) => {
  const t = useTestBed({
    database: kind,
    now: NOW,
    dataDir: 'bookings-',
    env: { SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' },
  });
  let checkUp: string;
  let vaccination: string;
  const logs: string[] = [];

  beforeAll(async () => {
    checkUp = (
      await addBookableType(t.db, { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 })
    ).id;
    vaccination = (await addBookableType(t.db, { name: 'Impfung', description: 'Impfen', maxAdvanceDays: 14, slotDurationMinutes: 10, maxSlotsPerTime: 2 })).id;
  });

  beforeEach(async () => {
    await t.db.delete(bookedSlots);
    await t.db.delete(blockedDates);
    // Each test starts with fresh abuse limits (the tests book from one address and one email).
    await t.db.delete(rateLimits);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const book = (body: Record<string, unknown>) => call(bookings, '/api/bookings', { method: 'POST', body });
  const slot = (overrides: Record<string, unknown> = {}) => ({
    appointment_type_id: checkUp,
    appointment_date: '2030-01-08',
    appointment_time: '09:00',
    ...patient,
    ...overrides,
  });
  const countRows = async () => (await t.db.select().from(bookedSlots)).length;

  describe('GET /api/availability', () => {
    const get = (query: Record<string, string>) => call(availability, '/api/availability', { query });

    it('answers a whole range in one request: every selectable date with its free times', async () => {
      const res = await get({ type: checkUp, from: '2030-01-07', to: '2030-01-31' });
      expect(res.status).toBe(200);
      expect(res.json.timezone).toBe('Europe/Berlin');
      expect(res.json.type).toBe(checkUp);
      const dates = res.json.days.map((d: { date: string }) => d.date);
      // Today + 14 days, weekdays only.
      expect(dates).toEqual([
        '2030-01-07', '2030-01-08', '2030-01-09', '2030-01-10', '2030-01-11',
        '2030-01-14', '2030-01-15', '2030-01-16', '2030-01-17', '2030-01-18', '2030-01-21',
      ]);
      expect(res.json.days[0].times).toHaveLength(16);
      expect(res.json.days[0].times[0]).toBe('08:20');
      expect(res.json.days[0].times.at(-1)).toBe('13:20');
    });

    it("is kept by Netlify's CDN per type and range, tagged by type, never by the browser; a refusal is kept nowhere", async () => {
      const res = await get({ type: checkUp, from: '2030-01-07', to: '2030-01-31' });
      expect(res.headers.get('netlify-cdn-cache-control')).toMatch(/^public, durable, max-age=\d+, stale-while-revalidate=\d+$/);
      expect(res.headers.get('netlify-vary')).toBe('query=type|from|to');
      expect(res.headers.get('netlify-cache-tag')).toBe(`availability, availability-${checkUp}`);
      expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      for (const refused of [await get({ type: checkUp, from: '2030-01-31', to: '2030-01-07' }), await get({ type: crypto.randomUUID(), from: '2030-01-07', to: '2030-01-08' })]) {
        expect(refused.status).toBeGreaterThanOrEqual(400);
        expect(refused.headers.get('cache-control')).toBe('no-store');
        expect(refused.headers.get('netlify-cdn-cache-control')).toBeNull();
        expect(refused.headers.get('netlify-cache-tag')).toBeNull();
      }
    });

    it('honours blocked dates of the type and of all types, not those of another type', async () => {
      await t.db.insert(blockedDates).values([
        { date: '2030-01-08', appointmentTypeId: checkUp, reason: 'Fortbildung' },
        { date: '2030-01-09', appointmentTypeId: null },
        { date: '2030-01-10', appointmentTypeId: vaccination },
      ]);
      const res = await get({ type: checkUp, from: '2030-01-07', to: '2030-01-11' });
      expect(res.json.days.map((d: { date: string }) => d.date)).toEqual(['2030-01-07', '2030-01-10', '2030-01-11']);
    });

    it('removes a time once its capacity is booked', async () => {
      expect((await book(slot())).status).toBe(201);
      const res = await get({ type: checkUp, from: '2030-01-08', to: '2030-01-08' });
      expect(res.json.days[0].times).not.toContain('09:00');
      expect(res.json.days[0].times).toHaveLength(15);
    });

    it.each([
      [{ from: '2030-01-07', to: '2030-01-08' }, 'type'],
      [{ type: 'not-a-uuid', from: '2030-01-07', to: '2030-01-08' }, 'type'],
      [{ type: 'TYPE', to: '2030-01-08' }, 'from'],
      [{ type: 'TYPE', from: '2030-02-30', to: '2030-03-01' }, 'from'],
      [{ type: 'TYPE', from: '07.01.2030', to: '2030-01-08' }, 'from'],
      [{ type: 'TYPE', from: '2030-01-08', to: '2030-01-07' }, 'to'],
      [{ type: 'TYPE', from: '2030-01-01', to: '2030-03-04' }, 'to'],
    ])('answers 400 for %j naming %s', async (query, field) => {
      const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'TYPE' ? checkUp : v]));
      const res = await get(q);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect(Object.keys(res.json.errors)).toContain(field);
    });

    it('accepts exactly 62 days and answers 404 for an unknown type', async () => {
      expect((await get({ type: checkUp, from: '2030-01-01', to: '2030-03-03' })).status).toBe(200);
      const res = await get({ type: '00000000-0000-4000-8000-000000000000', from: '2030-01-07', to: '2030-01-08' });
      expect(res.status).toBe(404);
    });
  });

  describe('POST /api/bookings', () => {
    it('books the slot: 201 with the booking and email outcome, one row without patient data', async () => {
      const res = await book(slot());
      expect(res.status).toBe(201);
      expect(res.json).toEqual({
        booking: {
          id: expect.any(String),
          appointment_type_id: checkUp,
          appointment_date: '2030-01-08',
          appointment_time: '09:00',
          reference: expect.stringMatching(/^[2-9A-HJKMNP-Z]{6}$/),
        },
        email: { success: true },
      });
      const [row] = await t.db.select().from(bookedSlots);
      expect(row).toMatchObject({
        appointmentTypeId: checkUp,
        appointmentDate: '2030-01-08',
        appointmentTime: '09:00:00',
        source: 'online',
        reference: res.json.booking.reference,
        practiceNotified: true,
      });
      expect(row!.cancellationTokenHash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('stores and logs nothing the patient entered', async () => {
      await book(slot({ first_name: 'Zerberus', last_name: 'Quastenflosser', phone: '0211 98765432', email: 'zq@example.org', birth_date: '1971-02-03' }));
      const stored = await rowsAsText(t);
      const logged = logs.join('\n');
      for (const secret of ['Zerberus', 'Quastenflosser', '98765432', 'zq@example.org', '1971-02-03', '03.02.1971']) {
        expect(stored).not.toContain(secret);
        expect(logged).not.toContain(secret);
      }
    });

    it('sends the patient a confirmation in German and the practice a notification', async () => {
      await book(slot());
      const mails = await readOutbox(t.outbox);
      expect(mails).toHaveLength(2);
      const toPatient = mails.find((m) => m.headers.to === patient.email)!;
      const toPractice = mails.find((m) => m.headers.to === 'team@praxis.example')!;
      expect(toPatient.subject).toBe('Terminbestätigung: Check-up am 08.01.2030 um 09:00');
      expect(toPatient.text).toContain('Guten Tag Erika Mustermann,');
      expect(toPatient.text).toContain('Dienstag, 8. Januar 2030');
      expect(toPatient.text).toContain('09:00 Uhr');
      expect(toPatient.text).toContain('20 Minuten');
      expect(toPatient.text).toContain('Königsallee 1, 40212 Düsseldorf');
      const link = /https:\/\/praxis\.example\/termin\/absagen\?token=([A-Za-z0-9_-]{43})/.exec(toPatient.text);
      expect(link).not.toBeNull();
      expect(toPatient.html).toContain(`href="https://praxis.example/termin/absagen?token=${link![1]}"`);
      const [ics] = toPatient.attachments;
      expect(ics!.filename).toBe('termin.ics');
      expect(ics!.content).toContain('DTSTART;TZID=Europe/Berlin:20300108T090000');
      expect(ics!.content).toContain('DTEND;TZID=Europe/Berlin:20300108T092000');
      expect(ics!.content).toContain('TZID:Europe/Berlin');
      // The practice's notification: what, when, which booking, and the way into the back office; nothing of the patient.
      const id = (await t.db.select({ id: bookedSlots.id }).from(bookedSlots))[0]!.id;
      expect(toPractice.subject).toBe('Neuer Online-Termin: Check-up am 08.01.2030 um 09:00 Uhr');
      expect(toPractice.text.split('\n')[0]).toBe('Über unsere Website wurde ein Termin gebucht:');
      for (const line of ['Terminart: Check-up', 'Datum: Dienstag, 8. Januar 2030', 'Uhrzeit: 09:00 Uhr', 'Dauer: 20 Minuten']) {
        expect(toPractice.text).toContain(line);
      }
      const reference = (await t.db.select({ r: bookedSlots.reference }).from(bookedSlots))[0]!.r;
      expect(toPractice.text).toContain(`Buchungsnummer: ${reference}`);
      expect(toPractice.text).toContain(`https://praxis.example/admin/booked-slots?buchung=${id}`);
      expect(toPractice.html).toContain(`href="https://praxis.example/admin/booked-slots?buchung=${id}"`);
      expect(toPractice.headers['reply-to']).toBeUndefined();
      for (const value of ['Erika', 'Mustermann', '12.08.1964', '1964-08-12', '5550123', patient.email, 'Deutsch']) {
        expect(`${toPractice.subject}\n${toPractice.text}\n${toPractice.html}`).not.toContain(value);
      }
    });

    it('with PRACTICE_NOTICE_DETAILS=full the practice gets the patient\'s details as before, replies going to the patient', async () => {
      process.env.PRACTICE_NOTICE_DETAILS = 'full';
      try {
        await book(slot());
      } finally {
        delete process.env.PRACTICE_NOTICE_DETAILS;
      }
      const toPractice = (await readOutbox(t.outbox)).find((m) => m.headers.to === 'team@praxis.example')!;
      expect(toPractice.headers['reply-to']).toBe(patient.email);
      expect(toPractice.text).toContain('Name: Erika Mustermann');
      expect(toPractice.text).toContain('Geburtsdatum: 12.08.1964');
      expect(toPractice.text).toContain('Telefon: 0211 5550123');
      expect(toPractice.text).toContain(`E-Mail: ${patient.email}`);
      expect(toPractice.text).toContain('Sprache: Deutsch');
      expect(toPractice.text).toMatch(/https:\/\/praxis\.example\/admin\/booked-slots\?buchung=[0-9a-f-]{36}/);
    });

    it('any other PRACTICE_NOTICE_DETAILS value (a typo) keeps the patient out of the practice\'s email', async () => {
      process.env.PRACTICE_NOTICE_DETAILS = 'ful';
      try {
        await book(slot());
      } finally {
        delete process.env.PRACTICE_NOTICE_DETAILS;
      }
      const toPractice = (await readOutbox(t.outbox)).find((m) => m.headers.to === 'team@praxis.example')!;
      expect(toPractice.text).not.toContain('Mustermann');
      expect(toPractice.headers['reply-to']).toBeUndefined();
    });

    it('writes emails a real mail parser reads as single, valid mailboxes', async () => {
      expect((await book(slot({ first_name: 'Zoë', last_name: "O'Brien-Ünal", email: 'zoe@bücher.de' }))).status).toBe(201);
      const mails = await readOutbox(t.outbox);
      expect(mails).toHaveLength(2);
      for (const mail of mails) {
        for (const field of ['from', 'to'] as const) {
          expect(mail.addresses[field]).toHaveLength(1);
          expect(mail.addresses[field][0]!.address).toMatch(/^[^\s@<>"]+@[^\s@<>"]+$/);
        }
        expect(mail.raw).toMatch(/^From: .*<[\x21-\x7e]+@[a-z0-9.-]+>\r$/m);
        expect(/^[\x00-\x7f]*$/.test(mail.raw)).toBe(true);
      }
      expect(mails.find((m) => m.raw.includes('To: zoe@xn--bcher-kva.de'))).toBeDefined();
    });

    it('writes the English confirmation with the English name and link for an English booking', async () => {
      await book(slot({ language: 'en' }));
      const toPatient = (await readOutbox(t.outbox)).find((m) => m.headers.to === patient.email)!;
      expect(toPatient.subject).toBe('Appointment confirmation: Health check on Tue 8 Jan 2030 at 09:00');
      expect(toPatient.text).toContain('Tuesday, 8 January 2030');
      expect(toPatient.text).toMatch(/https:\/\/praxis\.example\/en\/termin\/absagen\?token=/);
      expect(toPatient.attachments[0]!.filename).toBe('appointment.ics');
    });

    it('escapes what the patient typed in every HTML body (the practice\'s too, when it asks for the details)', async () => {
      process.env.PRACTICE_NOTICE_DETAILS = 'full';
      try {
        await book(slot({ first_name: '<img src=x onerror=alert(1)>', last_name: 'O\'Brien & "Sons"' }));
      } finally {
        delete process.env.PRACTICE_NOTICE_DETAILS;
      }
      const mails = await readOutbox(t.outbox);
      expect(mails).toHaveLength(2);
      for (const mail of mails) {
        expect(mail.html).not.toContain('<img src=x');
        expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
        expect(mail.html).toContain('O&#39;Brien &amp; &quot;Sons&quot;');
      }
    });

    it('never waits for an email: a refused one leaves the booking standing, marked for a call, and logs no address', async () => {
      const res = await book(slot({ email: 'erika@mail.invalid' }));
      expect(res.status).toBe(201);
      // Queued with the booking: the answer does not wait for the mail service (docs/decisions/035).
      expect(res.json.email).toEqual({ success: true });
      expect(await countRows()).toBe(1);
      expect(await readOutbox(t.outbox)).toHaveLength(1); // the practice's notice; the patient's address is refused
      const outbox = await t.db.execute(sql`select kind, status, audience from email_outbox where booking_id = ${res.json.booking.id}::uuid order by kind`);
      expect((outbox as unknown as { rows: unknown[] }).rows).toEqual([
        { kind: 'booking-confirmation', status: 'failed', audience: 'patient' },
        { kind: 'practice-booking', status: 'sent', audience: 'practice' },
      ]);
      const [row] = await listBookedSlots(t.db);
      expect(row).toMatchObject({ needs_call: true, patient_notice: 'failed', practice_notified: true });
      expect(logs.join('\n')).not.toContain('erika@mail.invalid');
    });

    it('a practice notice the mail service refuses marks the booking "Praxis nicht benachrichtigt"', async () => {
      process.env.PRACTICE_EMAIL = 'team@praxis.invalid';
      try {
        const res = await book(slot({ language: 'en' }));
        expect(res.status).toBe(201);
        expect(res.json.email).toEqual({ success: true });
        await readOutbox(t.outbox);
        const [row] = await listBookedSlots(t.db);
        expect(row).toMatchObject({ practice_notified: false, needs_call: false, patient_notice: 'sent' });
      } finally {
        process.env.PRACTICE_EMAIL = 'team@praxis.example';
      }
    });

    it.each([
      ['a full slot', async () => void (await book(slot())), 'This time has just been booked by someone else.'],
      ['a blocked date', async () => void (await t.db.insert(blockedDates).values({ date: '2030-01-08' })), 'This date cannot be booked for this consultation type.'],
    ])('answers 409 slot-unavailable for %s with its reason and stores nothing more', async (_label, arrange, detail) => {
      await arrange();
      const before = await countRows();
      const res = await book(slot());
      expect(res.status).toBe(409);
      expect(res.json.type).toBe('slot-unavailable');
      expect(res.json.detail).toBe(detail);
      expect(await countRows()).toBe(before);
    });

    const notASlot = 'This is not a bookable start time for this consultation type.';
    const notThisDate = 'This date cannot be booked for this consultation type.';
    it.each([
      ['a time between slots', { appointment_time: '09:10' }, notASlot],
      ['a time after the last slot', { appointment_time: '13:30' }, notASlot],
      ['a past date', { appointment_date: '2030-01-04' }, notThisDate],
      ['a Saturday', { appointment_date: '2030-01-12' }, notThisDate],
      ['beyond the advance limit', { appointment_date: '2030-01-22' }, notThisDate],
      ['an unknown type', { appointment_type_id: '00000000-0000-4000-8000-000000000000' }, 'This consultation type is not offered (any more).'],
    ])('answers 409 for %s with its reason', async (_label, overrides, detail) => {
      const res = await book(slot(overrides));
      expect(res.status).toBe(409);
      expect(res.json.type).toBe('slot-unavailable');
      expect(res.json.detail).toBe(detail);
      expect(await countRows()).toBe(0);
    });

    it("a time taken meanwhile answers 409 with the date's and the next days' current free times, as the database sees them", async () => {
      expect((await book(slot())).status).toBe(201);
      const res = await book(slot({ email: 'zweite@example.org' }));
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ type: 'slot-unavailable', reason: 'full', availability: { from: '2030-01-08', to: '2030-01-14' } });
      const days = res.json.availability.days as Array<{ date: string; times: string[] }>;
      // The same answer GET /api/availability gives now, without the taken time.
      const now = await call(availability, '/api/availability', { query: { type: checkUp, from: '2030-01-08', to: '2030-01-14' } });
      expect(days).toEqual(now.json.days);
      expect(days[0]).toMatchObject({ date: '2030-01-08' });
      expect(days[0]!.times).not.toContain('09:00');
      expect(days[0]!.times).toContain('09:20');
      // A refusal for another reason than the time (an unknown type) says nothing more.
      const unknown = await book(slot({ appointment_type_id: '00000000-0000-4000-8000-000000000000' }));
      expect(unknown.json.availability).toBeUndefined();
    });

    it('re-checks in its insert statement what may change after the rules were read: blocked date, windows, capacity, the type itself', async () => {
      const input = { typeId: checkUp, date: '2030-01-08', time: '09:00', now: NOW };
      const hash = (n: number) => n.toString(16).padStart(64, '0');
      expect(await insertBooking(t.db, { ...input, time: '09:10', tokenHash: hash(1) })).toEqual({ rejected: 'not-a-slot' });
      expect(await insertBooking(t.db, { ...input, time: '13:20', tokenHash: hash(1) })).toMatchObject({ booked: { seat: 1, appointmentTime: '13:20:00' } });
      expect(await insertBooking(t.db, { ...input, time: '13:40', tokenHash: hash(2) })).toEqual({ rejected: 'not-a-slot' });
      expect(await insertBooking(t.db, { ...input, date: '2030-01-12', tokenHash: hash(2) })).toEqual({ rejected: 'not-a-slot' });
      expect(await insertBooking(t.db, { ...input, typeId: '00000000-0000-4000-8000-000000000000', tokenHash: hash(2) })).toEqual({ rejected: 'unknown-type' });
      const first = await insertBooking(t.db, { ...input, tokenHash: hash(3) });
      expect(first).toMatchObject({ booked: { seat: 1 } });
      expect(await insertBooking(t.db, { ...input, tokenHash: hash(4) })).toEqual({ rejected: 'full' });
      await t.db.insert(blockedDates).values({ date: '2030-01-09', appointmentTypeId: null });
      expect(await insertBooking(t.db, { ...input, date: '2030-01-09', tokenHash: hash(5) })).toEqual({ rejected: 'blocked' });
      // Capacity 2 takes seats 1 and 2, then is full.
      const v = { ...input, typeId: vaccination, time: '10:00' };
      expect(await insertBooking(t.db, { ...v, tokenHash: hash(6) })).toMatchObject({ booked: { seat: 1 } });
      expect(await insertBooking(t.db, { ...v, tokenHash: hash(7) })).toMatchObject({ booked: { seat: 2 } });
      expect(await insertBooking(t.db, { ...v, tokenHash: hash(8) })).toEqual({ rejected: 'full' });
      expect(await countRows()).toBe(4);
    });

    it('answers 409 for a time of today that has passed, and books a later one', async () => {
      vi.setSystemTime(new Date('2030-01-07T10:05:00+01:00'));
      try {
        const passed = await book(slot({ appointment_date: '2030-01-07', appointment_time: '10:00' }));
        expect(passed.status).toBe(409);
        expect(passed.json.detail).toBe('This time has already passed.');
        expect((await book(slot({ appointment_date: '2030-01-07', appointment_time: '10:20' }))).status).toBe(201);
      } finally {
        vi.setSystemTime(NOW);
      }
    });

    it('lets a second patient book a time of capacity 2, not a third', async () => {
      const s = slot({ appointment_type_id: vaccination, appointment_time: '10:00' });
      expect((await book(s)).status).toBe(201);
      expect((await book(s)).status).toBe(201);
      expect((await book(s)).status).toBe(409);
    });

    it('accepts the type id in any letter case and answers with the canonical lower-case id', async () => {
      const res = await book(slot({ appointment_type_id: checkUp.toUpperCase() }));
      expect(res.status).toBe(201);
      expect(res.json.booking.appointment_type_id).toBe(checkUp);
      // The same slot in another spelling is the same slot.
      const again = await book(slot({ appointment_type_id: checkUp.replace(/[a-f]/, (c) => c.toUpperCase()), email: 'other@example.org' }));
      expect(again.status).toBe(409);
      const free = await call(availability, '/api/availability', { query: { type: checkUp.toUpperCase(), from: '2030-01-08', to: '2030-01-08' } });
      expect(free.json.type).toBe(checkUp);
      expect(free.json.days[0].times).not.toContain('09:00');
    });

    describe('abuse limits', () => {
      const times = ['08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20', '11:40', '12:00'];
      const limitRows = () => t.db.select().from(rateLimits);

      it('books at most 10 times per client address per hour: the 11th gets 429 rate-limited with Retry-After, nothing stored, nothing sent', async () => {
        for (let i = 0; i < 10; i++) {
          const res = await call(bookings, '/api/bookings', { method: 'POST', body: slot({ appointment_time: times[i], email: `p${i}@example.org` }), ip: '203.0.113.9' });
          expect(res.status).toBe(201);
        }
        const hitsBefore = (await limitRows()).find((r) => r.bucket === 'booking-client')!.hits;
        const mailsBefore = (await readOutbox(t.outbox)).length;
        vi.setSystemTime(new Date(NOW.getTime() + 20 * 60_000));
        try {
          const res = await call(bookings, '/api/bookings', { method: 'POST', body: slot({ appointment_time: times[10], email: 'p10@example.org' }), ip: '203.0.113.9' });
          expect(res.status).toBe(429);
          expect(res.headers.get('content-type')).toMatch(/problem\+json/);
          expect(res.json).toMatchObject({ type: 'rate-limited', status: 429 });
          // The first booking leaves the hour 40 minutes from now.
          expect(res.headers.get('retry-after')).toBe(String(40 * 60));
          expect(await countRows()).toBe(10);
          expect((await readOutbox(t.outbox)).length).toBe(mailsBefore);
          expect((await limitRows()).find((r) => r.bucket === 'booking-client')!.hits).toEqual(hitsBefore);
          // Another address is not affected.
          expect((await call(bookings, '/api/bookings', { method: 'POST', body: slot({ appointment_time: times[10], email: 'p10@example.org' }), ip: '203.0.113.10' })).status).toBe(201);
          // Once the first hour has passed, this address may book again.
          vi.setSystemTime(new Date(NOW.getTime() + 60 * 60_000));
          expect((await call(bookings, '/api/bookings', { method: 'POST', body: slot({ appointment_time: times[11], email: 'p11@example.org' }), ip: '203.0.113.9' })).status).toBe(201);
        } finally {
          vi.setSystemTime(NOW);
        }
      });

      it('sends at most 3 confirmation emails per recipient per day, whatever the spelling of the address: the 4th booking gets 429, nothing stored, nothing sent', async () => {
        const spellings = ['erika@example.org', 'Erika@Example.org', ' ERIKA@example.ORG ', 'erika@EXAMPLE.org'];
        for (let i = 0; i < 3; i++) {
          const res = await call(bookings, '/api/bookings', { method: 'POST', body: slot({ appointment_time: times[i], email: spellings[i] }), ip: `192.0.2.${i + 1}` });
          expect(res.status).toBe(201);
        }
        const res = await call(bookings, '/api/bookings', { method: 'POST', body: slot({ appointment_time: times[3], email: spellings[3] }), ip: '192.0.2.99' });
        expect(res.status).toBe(429);
        expect(res.json.type).toBe('rate-limited');
        expect(res.headers.get('retry-after')).toBe(String(24 * 60 * 60));
        expect(await countRows()).toBe(3);
        expect((await readOutbox(t.outbox)).filter((m) => m.headers.to?.toLowerCase().includes('erika@example.org'))).toHaveLength(3);
        // The refused request's client address counted nothing either.
        expect((await limitRows()).filter((r) => r.bucket === 'booking-client')).toHaveLength(3);
      });

      it('keeps only keyed hashes: no address, no email in the limit rows', async () => {
        await call(bookings, '/api/bookings', { method: 'POST', body: slot({ email: 'zq@example.org' }), ip: '198.51.100.23' });
        const rows = await limitRows();
        expect(rows.map((r) => r.bucket).sort()).toEqual(['booking-client', 'confirmation-recipient']);
        for (const row of rows) expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
        const stored = await rowsAsText(t);
        for (const secret of ['198.51.100.23', 'zq@example.org']) expect(stored).not.toContain(secret);
      });

      it('neither a 409 nor a 400 counts against the limits', async () => {
        await book(slot());
        await t.db.delete(rateLimits);
        expect((await book(slot({ email: 'second@example.org' }))).status).toBe(409);
        expect((await book(slot({ phone: '1' }))).status).toBe(400);
        expect(await limitRows()).toEqual([]);
      });

      it('purges limit rows whose window has passed', async () => {
        await call(bookings, '/api/bookings', { method: 'POST', body: slot({ email: 'old@example.org' }), ip: '198.51.100.1' });
        expect(await limitRows()).toHaveLength(2);
        vi.setSystemTime(new Date(NOW.getTime() + 25 * 60 * 60_000));
        try {
          await call(bookings, '/api/bookings', { method: 'POST', body: slot({ appointment_date: '2030-01-09', email: 'new@example.org' }), ip: '198.51.100.2' });
          const rows = await limitRows();
          expect(rows).toHaveLength(2);
          expect(rows.every((r) => r.expiresAt.getTime() > NOW.getTime() + 25 * 60 * 60_000)).toBe(true);
        } finally {
          vi.setSystemTime(NOW);
        }
      });
    });

    const malformed: Array<[string, unknown, string]> = [
      ['a missing first name', { first_name: undefined }, 'first_name'],
      ['a one-letter first name', { first_name: 'E' }, 'first_name'],
      ['a blank last name', { last_name: '   ' }, 'last_name'],
      ['a 101-character name', { last_name: 'x'.repeat(101) }, 'last_name'],
      ['a line break in a name', { last_name: 'Muster\r\nBcc: x@example.org' }, 'last_name'],
      ['a German birth date', { birth_date: '12.08.1964' }, 'birth_date'],
      ['31 February', { birth_date: '1990-02-31' }, 'birth_date'],
      ['a birth date in the future', { birth_date: '2031-01-01' }, 'birth_date'],
      ['a birth date 131 years ago', { birth_date: '1898-01-01' }, 'birth_date'],
      ['a short phone number', { phone: '0211 123' }, 'phone'],
      ['letters in the phone number', { phone: '0211 CALL ME NOW' }, 'phone'],
      ['a phone number with too few digits', { phone: '++++ ---- 123456' }, 'phone'],
      ['a missing email', { email: '' }, 'email'],
      ['an invalid email', { email: 'erika@' }, 'email'],
      ['two emails', { email: 'a@example.org, b@example.org' }, 'email'],
      ['an email with a line break', { email: 'a@example.org\nBcc: b@example.org' }, 'email'],
      ['no consent', { consent: false }, 'consent'],
      ['consent as a string', { consent: 'true' }, 'consent'],
      ['an unknown language', { language: 'fr' }, 'language'],
      ['a type id that is not a uuid', { appointment_type_id: '1' }, 'appointment_type_id'],
      ['a date in another format', { appointment_date: '08.01.2030' }, 'appointment_date'],
      ['an impossible date', { appointment_date: '2030-13-01' }, 'appointment_date'],
      ['a time with seconds', { appointment_time: '09:00:00' }, 'appointment_time'],
      ['a time of 24:00', { appointment_time: '24:00' }, 'appointment_time'],
      ['a number as time', { appointment_time: 900 }, 'appointment_time'],
      ['an array as name', { first_name: ['Erika'] }, 'first_name'],
      // docs/architecture.md (Bad input): control, bidi and separator characters; zero-width-only names
      ['a name with DEL', { first_name: 'Eri\u007fka' }, 'first_name'],
      ['a name with the C1 control U+009B', { last_name: 'Muster\u009b' }, 'last_name'],
      ['a name with U+2028', { first_name: 'Eri\u2028ka' }, 'first_name'],
      ['a name with the RTL override U+202E', { last_name: '\u202eretsuM' }, 'last_name'],
      ['a name of zero-width characters only', { first_name: '\u200c\u200d\u200c' }, 'first_name'],
      // format characters and noncharacters (docs/decisions/028-hidden-characters-addresses-invitations-origin.md)
      ['a name with the RLM mark U+200F', { first_name: 'Erika\u200f' }, 'first_name'],
      ['a name with the Arabic letter mark U+061C', { last_name: 'Mus\u061cter' }, 'last_name'],
      ['a name starting with U+FEFF', { last_name: '\ufeffMuster' }, 'last_name'],
      ['a name with an interlinear annotation U+FFF9', { first_name: 'Eri\ufff9ka' }, 'first_name'],
      ['a name with the noncharacter U+FFFE', { first_name: 'Eri\ufffeka' }, 'first_name'],
      ['a name with the noncharacter U+10FFFF', { last_name: 'Muster\u{10ffff}' }, 'last_name'],
      ['an email with NUL', { email: 'erika\u0000@example.org' }, 'email'],
      ['an email with a raw non-ASCII local part', { email: 'jörg@example.org' }, 'email'],
    ];

    it.each([
      ['31 February', '1990-02-31', 'bookingForm.errors.birthDateImpossible'],
      ['tomorrow', '2030-01-08', 'bookingForm.errors.birthDateFuture'],
      ['today', '2030-01-07', 'bookingForm.errors.birthDateFuture'],
      ['a German birth date', '12.08.1964', 'bookingForm.errors.birthDateFormat'],
      ['131 years ago', '1898-01-01', 'bookingForm.errors.birthDateInvalid'],
    ])('a birth date of %s is refused naming what is wrong', async (_label, birth_date, message) => {
      const res = await book(slot({ birth_date }));
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual({ birth_date: [message] });
      expect(await countRows()).toBe(0);
    });

    it.each(malformed)('answers 400 for %s naming the field, and writes nothing', async (_label, overrides, field) => {
      const res = await book(slot(overrides as Record<string, unknown>));
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect(res.json.type).toBe('invalid-input');
      expect(Object.keys(res.json.errors)).toEqual([field]);
      expect(res.json.errors[field][0]).toMatch(/^(bookingForm\.errors|errors)\./);
      expect(await countRows()).toBe(0);
      expect(await readOutbox(t.outbox)).toEqual([]);
    });

    it.each([
      ['not JSON', '{"first_name":', 400],
      ['a JSON array', '[]', 400],
      ['JSON null', 'null', 400],
      ['an empty object', '{}', 400],
    ])('answers %s with 400', async (_label, raw, status) => {
      const res = await call(bookings, '/api/bookings', { method: 'POST', body: raw });
      expect(res.status).toBe(status);
      expect(await countRows()).toBe(0);
    });

    it('answers 413 above 64 KiB, 415 for a form post and 405 for GET', async () => {
      expect((await book(slot({ notes: 'x'.repeat(70_000) }))).status).toBe(413);
      const form = await call(bookings, '/api/bookings', { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(form.status).toBe(415);
      expect((await call(bookings, '/api/bookings')).status).toBe(405);
      expect(await countRows()).toBe(0);
    });
  });

  describe('cancellation', () => {
    async function bookAndGetToken(overrides: Record<string, unknown> = {}) {
      const res = await book(slot(overrides));
      expect(res.status).toBe(201);
      const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === patient.email)!;
      return /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    }

    it('shows the appointment for a valid token', async () => {
      const token = await bookAndGetToken();
      const res = await call(cancel, '/api/bookings/cancel', { query: { token } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        appointment_type_id: checkUp,
        type_name: 'Check-up',
        type_name_en: 'Health check',
        appointment_date: '2030-01-08',
        appointment_time: '09:00',
        reference: expect.stringMatching(/^[2-9A-HJKMNP-Z]{6}$/),
        price_cents: expect.toBeOneOf([null, expect.any(Number)]),
      });
    });

    it('cancels, frees the time; the reused link answers 410 cancelled-by-patient with what it was until the date has passed, then 404', async () => {
      const token = await bookAndGetToken();
      const shown = await call(cancel, '/api/bookings/cancel', { query: { token } });
      const res = await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ cancelled: true });
      expect(await countRows()).toBe(0);
      const free = await call(availability, '/api/availability', { query: { type: checkUp, from: '2030-01-08', to: '2030-01-08' } });
      expect(free.json.days[0].times).toContain('09:00');
      const tombstone = {
        type: 'cancelled-by-patient',
        appointment_date: '2030-01-08',
        appointment_time: '09:00',
        type_name: 'Check-up',
        type_name_en: 'Health check',
        reference: shown.json.reference,
      };
      for (const again of [
        await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } }),
        await call(cancel, '/api/bookings/cancel', { query: { token } }),
      ]) {
        expect(again.status).toBe(410);
        expect(again.json).toMatchObject(tombstone);
      }
      // The tombstone is the link's only: staff see no practice cancellation, and the time stays free.
      expect(await listBookedSlots(t.db)).toEqual([]);
      expect((await call(availability, '/api/availability', { query: { type: checkUp, from: '2030-01-08', to: '2030-01-08' } })).json.days[0].times).toContain('09:00');
      // Once the day has passed the link is simply unknown, and the scheduled purge removes the tombstone.
      vi.setSystemTime(new Date('2030-01-09T08:00:00+01:00'));
      try {
        expect((await call(cancel, '/api/bookings/cancel', { query: { token } })).status).toBe(404);
        expect((await purgeEnded(t.db)).tombstones).toBe(1);
        expect(await t.db.select().from(cancelledBookings)).toEqual([]);
      } finally {
        vi.setSystemTime(NOW);
      }
    });

    it('answers 404 for an unknown token and 400 for a malformed one', async () => {
      const unknown = 'A'.repeat(43);
      expect((await call(cancel, '/api/bookings/cancel', { query: { token: unknown } })).status).toBe(404);
      expect((await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token: unknown } })).status).toBe(404);
      expect((await call(cancel, '/api/bookings/cancel', { query: { token: 'short' } })).status).toBe(400);
      expect((await call(cancel, '/api/bookings/cancel', { method: 'POST', body: {} })).status).toBe(400);
    });

    it('refuses once the appointment has begun (409 too-late) and keeps it', async () => {
      const token = await bookAndGetToken({ appointment_date: '2030-01-07', appointment_time: '10:00' });
      vi.setSystemTime(new Date('2030-01-07T10:00:00+01:00'));
      try {
        const shown = await call(cancel, '/api/bookings/cancel', { query: { token } });
        expect(shown.status).toBe(409);
        expect(shown.json.type).toBe('too-late');
        const res = await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } });
        expect(res.status).toBe(409);
        expect(await countRows()).toBe(1);
      } finally {
        vi.setSystemTime(NOW);
      }
    });
  });
});

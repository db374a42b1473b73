/**
 * Practice operations
 * (docs/decisions/010-staff-accounts-audit-day-list.md): staff (phone)
 * bookings, partial-day blocks, booking references, the practice's
 * cancellation notice and the "practice not notified" mark, on both
 * drivers.
 */
import { rm } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, blockedDates, bookedSlots, rateLimits } from '../../db/schema';
import staffBookings from '../../netlify/functions/admin-booked-slots';
import stats from '../../netlify/functions/admin-stats';
import availability from '../../netlify/functions/availability';
import bookings from '../../netlify/functions/bookings';
import cancel from '../../netlify/functions/bookings-cancel';
import * as bookingReference from '../../db/booking-reference';
import { dataKeyRing } from '../../src/server/appointment-contact/keys.server';
import { openQueued, prepareEmail } from '../../src/server/email/queue.server';
import { REFERENCE_PATTERN } from '../../src/lib/booking-reference';
import { insertBooking } from '../../src/server/bookings/slot-sql.server';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';
import { testCaller } from '../helpers/patient';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const DATE = '2030-01-08';
// The column default as the migration made it (restored after the collision test).

// The application draws references (a booking's emails name it, docs/decisions/035); a test decides the draws.
vi.mock('../../db/booking-reference', async (original) => {
  const actual = await original<typeof import('../../db/booking-reference')>();
  return { ...actual, drawReference: vi.fn(actual.drawReference) };
});

const patient = {
  first_name: 'Zerberus',
  last_name: 'Quastenflosser',
  birth_date: '1971-02-03',
  phone: '0211 98765432',
  email: 'zq@example.org',
  consent: true,
  language: 'de',
};

describe.each(databaseKinds)('practice operations on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'practice-ops-', env: { SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  let checkUp: string;
  let pair: string;
  const api = asAdmin(() => admin);
  const logs: string[] = [];

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    checkUp = (await addBookableType(t.db, { name: 'Check-up', description: 'c', slotDurationMinutes: 20, maxSlotsPerTime: 1, priceCents: 3500 })).id;
    pair = (await addBookableType(t.db, { name: 'Doppel', description: 'd', slotDurationMinutes: 20, maxSlotsPerTime: 2 })).id;
  });

  beforeEach(async () => {
    await t.db.delete(bookedSlots);
    await t.db.delete(blockedDates);
    await t.db.delete(rateLimits);
    await t.db.delete(auditLog);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    logs.length = 0;
    for (const level of ['log', 'info', 'warn', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(' ')));
    }
  });
  afterEach(() => vi.restoreAllMocks());

  const staffBook = (body: Record<string, unknown>) => api(staffBookings, '/api/admin/booked-slots', { method: 'POST', body: { ...testCaller, ...body } });
  const onlineBook = (overrides: Record<string, unknown> = {}) =>
    call(bookings, '/api/bookings', {
      method: 'POST',
      body: { appointment_type_id: checkUp, appointment_date: DATE, appointment_time: '09:00', ...patient, ...overrides },
    });
  const freeTimes = async (type = checkUp) =>
    (await call(availability, '/api/availability', { query: { type, from: DATE, to: DATE } })).json.days[0]?.times as string[];
  const slot = (time: string, type = checkUp) => ({ appointment_type_id: type, appointment_date: DATE, appointment_time: time });

  describe('staff bookings (POST /api/admin/booked-slots)', () => {
    it('takes a seat with source phone, a reference, no token (no email given), the caller sealed in its contact, never in booked_slots; the time leaves the wizard; audited', async () => {
      expect(await freeTimes()).toContain('10:00');
      const res = await staffBook({ ...slot('10:00'), appointment_type_id: checkUp.toUpperCase(), first_name: 'Zerberus', phone: '0211 98765432' });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({
        id: expect.any(String),
        appointment_type_id: checkUp,
        type_name: 'Check-up',
        appointment_date: DATE,
        appointment_time: '10:00',
        source: 'phone',
        reference: expect.stringMatching(REFERENCE_PATTERN),
        practice_notified: true,
        status: 'booked',
        patient_notified: true,
        // No email given: none goes, and none is owed (the caller is on the phone).
        patient_notice: 'none',
        needs_call: false,
        attendance: null,
        created_at: expect.any(String),
        // The number as typed, kept in E.164 (docs/decisions/043-sms-second-channel.md); the back office shows it nationally.
        patient: { first_name: 'Zerberus', last_name: testCaller.last_name, phone: '+4921198765432', birth_date: null, email: null, language: 'de' },
        patient_state: 'present',
        patient_channel: 'none',
        informed: null,
      });
      const [row] = await t.db.select().from(bookedSlots);
      expect(row).toMatchObject({ source: 'phone', cancellationTokenHash: null, seat: 1, reference: res.json.reference });
      expect(await freeTimes()).not.toContain('10:00');
      const stored = JSON.stringify(await t.db.execute(sql`select * from booked_slots`));
      expect(stored).not.toMatch(/Zerberus|98765432/);
      const audit = await t.db.select().from(auditLog);
      expect(audit).toEqual([expect.objectContaining({ action: 'create', entity: 'booked-slot', entityId: res.json.id, userId: admin.id })]);
      // The list shows the source of each booking.
      await onlineBook({ appointment_time: '10:20' });
      const list = await api(staffBookings, '/api/admin/booked-slots');
      expect(list.json.map((b: any) => `${b.appointment_time} ${b.source}`)).toEqual(['10:00 phone', '10:20 online']);
    });

    it('counts against the same capacity as online bookings, both ways', async () => {
      // Capacity 1: an online booking fills the time for staff …
      expect((await onlineBook({ appointment_time: '09:00' })).status).toBe(201);
      const refused = await staffBook(slot('09:00'));
      expect(refused.status).toBe(409);
      expect(refused.json).toMatchObject({ type: 'slot-unavailable', detail: 'This time has just been booked by someone else.' });
      // … and a phone booking fills it for the wizard.
      expect((await staffBook(slot('09:20'))).status).toBe(201);
      const online = await onlineBook({ appointment_time: '09:20' });
      expect(online.status).toBe(409);
      expect(online.json.type).toBe('slot-unavailable');
      // Capacity 2: one of each fills it; a third (either kind) is refused.
      expect((await staffBook(slot('11:00', pair))).status).toBe(201);
      expect((await onlineBook({ appointment_type_id: pair, appointment_time: '11:00' })).status).toBe(201);
      expect((await staffBook(slot('11:00', pair))).status).toBe(409);
      const seats = await t.db.select({ seat: bookedSlots.seat }).from(bookedSlots).where(eq(bookedSlots.appointmentTypeId, pair));
      expect(seats.map((s) => s.seat).sort()).toEqual([1, 2]);
      // A refusal leaves no audit entry.
      expect((await t.db.select().from(auditLog)).map((e) => e.action)).toEqual(['create', 'create']);
    });

    it.each([
      ['a blocked date', async () => void (await t.db.insert(blockedDates).values({ date: DATE })), () => slot('09:00'), 'This date cannot be booked for this consultation type.'],
      [
        'a partial-day block',
        async () => void (await t.db.insert(blockedDates).values({ date: DATE, startTime: '08:50', endTime: '09:10' })),
        () => slot('09:00'),
        'This date cannot be booked for this consultation type.',
      ],
      ['a time between slots', async () => {}, () => slot('09:10'), 'This is not a bookable start time for this consultation type.'],
      ['a past date', async () => {}, () => ({ ...slot('09:00'), appointment_date: '2030-01-04' }), 'This date cannot be booked for this consultation type.'],
      ['an unknown type', async () => {}, () => slot('09:00', '6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11'), 'This consultation type is not offered (any more).'],
    ])('409 slot-unavailable with the online reason for %s, nothing stored', async (_label, arrange, body, detail) => {
      await arrange();
      const res = await staffBook(body());
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ type: 'slot-unavailable', detail });
      expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
      expect(await t.db.select().from(auditLog)).toHaveLength(0);
    });

    it.each([
      ['type missing', { appointment_type_id: undefined }, 'appointment_type_id', 'admin.errors.typeRequired'],
      ['date not real', { appointment_date: '2030-02-30' }, 'appointment_date', 'admin.errors.dateRequired'],
      ['time malformed', { appointment_time: '9:00' }, 'appointment_time', 'admin.errors.timeInvalid'],
    ])('400 naming the field, nothing stored: %s', async (_label, change, field, key) => {
      expect(errorsOf(await staffBook({ ...slot('09:00'), ...change }))[field]).toEqual([key]);
      expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
    });

    it('401 without a session', async () => {
      const res = await call(staffBookings, '/api/admin/booked-slots', { method: 'POST', body: { ...slot('09:00'), ...testCaller } });
      expect(res.status).toBe(401);
      expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
    });

    it('the database refuses an online booking without a token (a phone booking has one only with an email)', async () => {
      const refusal = async (values: Partial<typeof bookedSlots.$inferInsert>) => {
        try {
          await t.db.insert(bookedSlots).values({ appointmentTypeId: checkUp, appointmentDate: DATE, appointmentTime: '12:00', seat: 1, ...values });
          return null;
        } catch (error) {
          const e = error as { constraint?: string; cause?: { constraint?: string } };
          return e.constraint ?? e.cause?.constraint;
        }
      };
      expect(await refusal({ source: 'online', cancellationTokenHash: null })).toBe('booked_slots_token_if_online');
      expect(await refusal({ source: 'fax', cancellationTokenHash: null })).toBe('booked_slots_source_known');
      expect(await refusal({ cancellationTokenHash: 'a'.repeat(64), reference: 'ABCDE0' })).toBe('booked_slots_reference_format');
    });
  });

  describe('partial-day blocks in the booking re-check', () => {
    it('the wizard loses exactly the overlapping times; the insert statement refuses them even past the rules check', async () => {
      await t.db.insert(blockedDates).values({ date: DATE, startTime: '10:00', endTime: '12:00', appointmentTypeId: checkUp });
      const times = await freeTimes();
      expect(times).toContain('09:40');
      expect(times).toContain('12:00');
      expect(times.filter((x) => x >= '10:00' && x < '12:00')).toEqual([]);
      // The other type is not blocked.
      expect(await freeTimes(pair)).toContain('10:00');
      // Online booking: 409 blocked.
      const res = await onlineBook({ appointment_time: '11:00' });
      expect(res.status).toBe(409);
      expect(res.json.detail).toBe('This date cannot be booked for this consultation type.');
      // The one statement on its own (as after a block added between the read and the insert).
      const insert = (time: string) => insertBooking(t.db, { typeId: checkUp, date: DATE, time, tokenHash: null, source: 'phone' });
      expect(await insert('11:40')).toEqual({ rejected: 'blocked' });
      expect(await insert('09:40')).toMatchObject({ booked: { appointmentTime: '09:40:00', source: 'phone' } });
      expect(await insert('12:00')).toMatchObject({ booked: { appointmentTime: '12:00:00' } });
    });

    it('a block for all types applies to every type', async () => {
      // 08:00–08:45 overlaps 08:20–08:40 and 08:40–09:00.
      await t.db.insert(blockedDates).values({ date: DATE, startTime: '08:00', endTime: '08:45' });
      expect((await freeTimes())[0]).toBe('09:00');
      expect((await freeTimes(pair))[0]).toBe('09:00');
    });
  });

  describe('booking references', () => {
    it('every booking gets a distinct 6-character reference without look-alikes, in the response, both emails and the list', async () => {
      const res = await onlineBook();
      expect(res.status).toBe(201);
      const reference: string = res.json.booking.reference;
      expect(reference).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/);
      const mails = await readOutbox(t.outbox);
      expect(mails).toHaveLength(2);
      for (const mail of mails) {
        expect(mail.text).toContain(`Buchungsnummer: ${reference}`);
        expect(mail.html).toContain(reference);
      }
      const list = await api(staffBookings, '/api/admin/booked-slots');
      expect(list.json[0].reference).toBe(reference);
      // Many bookings, all distinct.
      for (let i = 0; i < 20; i++) {
        const r = await insertBooking(t.db, { typeId: pair, date: '2030-01-09', time: '08:20', tokenHash: null, source: 'phone' });
        if ('rejected' in r) {
          expect(r.rejected).toBe('full');
          break;
        }
      }
      const refs = (await t.db.select({ r: bookedSlots.reference }).from(bookedSlots)).map((x) => x.r);
      expect(new Set(refs).size).toBe(refs.length);
    });

    it('a drawn reference that is taken is drawn again, and the booking still succeeds; its queued emails name the new one', async () => {
      await t.db.insert(bookedSlots).values({ appointmentTypeId: pair, appointmentDate: '2030-01-10', appointmentTime: '08:20', seat: 1, source: 'phone', reference: 'ABCDEF' });
      vi.mocked(bookingReference.drawReference).mockReturnValueOnce('ABCDEF').mockReturnValueOnce('ABCDEG');
      const keys = await dataKeyRing();
      const result = await insertBooking(t.db, {
        typeId: checkUp,
        date: DATE,
        time: '09:00',
        tokenHash: null,
        source: 'phone',
        emails: (reference) => [prepareEmail({ message: { to: 'p@example.org', subject: `Termin ${reference}`, html: '', text: reference }, kind: 'test-message', audience: 'patient' }, keys)],
      });
      expect(result).toMatchObject({ booked: { reference: 'ABCDEG' } });
      const queued = (await t.db.execute(sql`select id, key_id, sealed from email_outbox where kind = 'test-message'`)) as unknown as { rows: Array<{ id: string; key_id: string; sealed: string }> };
      expect(queued.rows.map((r) => openQueued({ id: r.id, keyId: r.key_id, sealed: r.sealed }, keys).subject)).toEqual(['Termin ABCDEG']);
    });
  });

  describe('cancellation notice to the practice', () => {
    const tokenOf = async () => {
      const mails = await readOutbox(t.outbox);
      return /token=([A-Za-z0-9_-]{43})/.exec(mails.find((m) => m.headers.to === patient.email)!.text)![1]!;
    };

    it('GET shows the reference and price; POST emails the practice in German with type, date, time, reference and nothing of the patient', async () => {
      const booked = await onlineBook();
      const reference = booked.json.booking.reference;
      const token = await tokenOf();
      const shown = await call(cancel, '/api/bookings/cancel', { query: { token } });
      expect(shown.json).toMatchObject({ reference, price_cents: 3500 });
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      const res = await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } });
      expect(res.status).toBe(200);
      // The practice's notice, and the patient's own confirmation (docs/decisions/021-appointment-contact-and-practice-changes.md).
      const mails = await readOutbox(t.outbox);
      expect(mails.map((m) => m.headers.to).sort()).toEqual([patient.email, 'team@praxis.example'].sort());
      const notice = mails.find((m) => m.headers.to === 'team@praxis.example');
      expect(notice!.headers.to).toBe('team@praxis.example');
      expect(notice!.subject).toBe(`Termin abgesagt: Check-up am 08.01.2030 um 09:00 Uhr (${reference})`);
      expect(notice!.text).toContain(`Buchungsnummer: ${reference}`);
      expect(notice!.text).toContain('Dienstag, 8. Januar 2030');
      expect(notice!.text).toContain('09:00 Uhr');
      expect(notice!.text).toContain('abgesagt');
      expect(`${notice!.text}${notice!.html}`).not.toMatch(/Zerberus|Quastenflosser|98765432|zq@example/);
    });

    it('a failed notice never undoes the cancellation', async () => {
      await onlineBook();
      const token = await tokenOf();
      process.env.PRACTICE_EMAIL = 'team@praxis.invalid';
      try {
        const res = await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } });
        expect(res.status).toBe(200);
        expect(res.json).toEqual({ cancelled: true });
      } finally {
        process.env.PRACTICE_EMAIL = 'team@praxis.example';
      }
      expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
      await settled();
      expect(logs.join('\n')).toMatch(/email [0-9a-f-]+ \(practice-cancelled\) failed: UndeliverableError/);
    });
  });

  describe('practice not notified', () => {
    it('marks the booking when the practice email failed; the list shows it and the dashboard counts it', async () => {
      expect((await onlineBook({ appointment_time: '08:20' })).status).toBe(201);
      process.env.PRACTICE_EMAIL = 'team@praxis.invalid';
      let res;
      try {
        res = await onlineBook({ appointment_time: '08:40' });
      } finally {
        process.env.PRACTICE_EMAIL = 'team@praxis.example';
      }
      expect(res.status).toBe(201);
      // The answer never waits for the mail service: the notice fails after it (docs/decisions/035).
      expect(res.json.email).toEqual({ success: true });
      await settled();
      const list = await api(staffBookings, '/api/admin/booked-slots');
      expect(list.json.map((b: any) => `${b.appointment_time} ${b.practice_notified}`)).toEqual(['08:20 true', '08:40 false']);
      const figures = await api(stats, '/api/admin/stats');
      expect(figures.json.unnotified).toBe(1);
      // A failed patient email alone does not mark it: it asks for a call instead.
      expect((await onlineBook({ appointment_time: '09:00', email: 'zq@mail.invalid' })).status).toBe(201);
      await settled();
      expect((await api(stats, '/api/admin/stats')).json).toMatchObject({ unnotified: 1, needsCall: 1 });
    });
  });
});

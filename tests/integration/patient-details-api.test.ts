/**
 * Patient details for staff (docs/decisions/025) through the real handlers,
 * on both drivers: phone bookings with the caller's details (bad input
 * refused naming the field, nothing stored), the details in the staff list
 * (no-store, "nicht lesbar" for a contact no key opens), the search
 * ("muller" finds "Müller", birth date, today and later only), one audit
 * row per answer revealing names (view and count, never a value), a phone
 * booking's confirmation with an email, and the number to call without one.
 */
import { rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import cancelFn from '../../netlify/functions/admin-booked-slot-cancel';
import moveFn from '../../netlify/functions/admin-booked-slot-move';
import bookedCollection, { config as collectionConfig } from '../../netlify/functions/admin-booked-slots';
import patients, { config as patientsConfig } from '../../netlify/functions/admin-patients';
import bookings from '../../netlify/functions/bookings';
import cancelLink from '../../netlify/functions/bookings-cancel';
import { appointmentContacts, auditLog, bookedSlots, cancelledBookings, rateLimits } from '../../db/schema';
import { parseKeyRing } from '../../src/server/appointment-contact/keys.server';
import { seal } from '../../src/server/appointment-contact/seal.server';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { icsOf } from '../helpers/ics';
import { testPatient } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const online = { ...testPatient, first_name: 'Zoë', last_name: 'Quastenflosser', birth_date: '1971-03-05', phone: '+49 211 5550999', email: 'zq@example.org' };
const caller = { first_name: 'Jürgen', last_name: 'Müller-Lüdenscheidt', phone: '0211 4445566' };

describe.each(databaseKinds)('patient details for staff on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'patient-details-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  let checkUp: string;
  const api = asAdmin(() => admin);
  const logs: string[] = [];

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    checkUp = (await addBookableType(t.db, { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 2 })).id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(rateLimits);
    await t.db.delete(auditLog);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  const staffBook = (body: Record<string, unknown>) =>
    api(bookedCollection, '/api/admin/booked-slots', {
      method: 'POST',
      body: { appointment_type_id: checkUp, appointment_date: '2030-01-08', appointment_time: '09:00', ...body },
    });
  const bookOnline = async (overrides: Record<string, unknown> = {}) => {
    const res = await call(bookings, '/api/bookings', {
      method: 'POST',
      body: { appointment_type_id: checkUp, appointment_date: '2030-01-08', appointment_time: '09:20', ...online, ...overrides },
    });
    expect(res.status).toBe(201);
    return res.json.booking as { id: string; reference: string };
  };
  const list = (query: Record<string, string> = {}) => api(bookedCollection, '/api/admin/booked-slots', { query });
  const search = (q: string) => api(patients, '/api/admin/patients', { query: { q } });
  const auditLabels = async () => (await t.db.select().from(auditLog)).filter((r) => r.action === 'view').map((r) => [r.entityId, r.label]);

  it('is routed as the API says', () => {
    expect(collectionConfig.path).toBe('/api/admin/booked-slots');
    expect(patientsConfig.path).toBe('/api/admin/patients');
  });

  describe('phone bookings with the caller\'s details', () => {
    it.each([
      [{ first_name: undefined }, 'first_name', 'admin.errors.firstNameRequired'],
      [{ first_name: ' ' }, 'first_name', 'admin.errors.firstNameRequired'],
      [{ last_name: undefined }, 'last_name', 'admin.errors.lastNameRequired'],
      [{ phone: undefined }, 'phone', 'admin.errors.phoneRequired'],
      [{ phone: '12' }, 'phone', 'admin.errors.phoneInvalid'],
      [{ phone: '0211 abc 12345' }, 'phone', 'admin.errors.phoneInvalid'],
      [{ last_name: 'Mül\u202Eler' }, 'last_name', 'admin.errors.invalidCharacters'],
      [{ first_name: 'Hans\nPeter' }, 'first_name', 'admin.errors.singleLine'],
      [{ last_name: '=?utf-8?q?x?=' }, 'last_name', 'admin.errors.invalidCharacters'],
      [{ birth_date: '31.02.1980' }, 'birth_date', 'admin.errors.birthDateInvalid'],
      [{ birth_date: '2031-01-01' }, 'birth_date', 'admin.errors.birthDateInvalid'],
      [{ email: 'not an address' }, 'email', 'admin.errors.emailInvalid'],
      [{ language: 'fr' }, 'language', 'admin.errors.languageInvalid'],
    ])('%j → 400 naming %s; nothing stored, nothing logged', async (override, field, key) => {
      const body: Record<string, unknown> = { ...caller, ...override };
      for (const [k, v] of Object.entries(override)) if (v === undefined) delete body[k];
      const res = await staffBook(body);
      expect(errorsOf(res)[field]).toEqual([key]);
      expect(await t.db.select().from(bookedSlots)).toHaveLength(0);
      expect(await t.db.select().from(appointmentContacts)).toHaveLength(0);
      expect(res.text).not.toContain('Müller');
      expect(logs.join('\n')).not.toMatch(/Müller|Jürgen|4445566/);
    });

    it('201 with the details sealed in the booking\'s contact (details 2); booked_slots holds none; the list shows them with no-store', async () => {
      const res = await staffBook({ ...caller, birth_date: '14.02.1950' });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({
        source: 'phone',
        patient: { first_name: 'Jürgen', last_name: 'Müller-Lüdenscheidt', phone: '+492114445566', birth_date: '1950-02-14', email: null, language: 'de' },
        patient_state: 'present',
      });
      const [row] = await t.db.select().from(bookedSlots);
      expect(row!.cancellationTokenHash).toBeNull(); // no email: no link
      expect(JSON.stringify(row)).not.toMatch(/Müller|Jürgen|4445566|1950/);
      const [contact] = await t.db.select().from(appointmentContacts);
      expect(contact).toMatchObject({ bookingId: res.json.id, details: 2, reminder: false, remindAt: null });
      expect(JSON.stringify(contact)).not.toMatch(/Müller|Jürgen|4445566|1950/);

      const shown = await list();
      expect(shown.headers.get('cache-control')).toBe('no-store');
      expect(shown.json).toEqual([expect.objectContaining({ id: res.json.id, patient: res.json.patient, patient_state: 'present' })]);
      // The audit row names the staff member, the view and the count, never a value.
      expect(await auditLabels()).toEqual([['booked-list', 'Terminliste alle angesehen: 1 Patient']]);
      const audit = await t.db.select().from(auditLog);
      expect(JSON.stringify(audit)).not.toMatch(/Müller|Jürgen|4445566|1950/);
      expect(logs.join('\n')).not.toMatch(/Müller|Jürgen|4445566|1950/);
    });

    it('with an email: the patient gets the online confirmation in the chosen language with .ics and link; the practice gets nothing', async () => {
      const res = await staffBook({ ...caller, email: 'juergen@example.org', language: 'en' });
      expect(res.status).toBe(201);
      expect(res.json.patient_notified).toBe(true);
      const mails = await readOutbox(t.outbox);
      expect(mails.map((m) => m.headers.to)).toEqual(['juergen@example.org']);
      const [mail] = mails;
      expect(mail!.subject).toContain('Health check');
      expect(mail!.text).toContain('Dear Jürgen Müller-Lüdenscheidt');
      expect(mail!.text).toContain(res.json.reference);
      expect(icsOf(mail!)).toMatchObject({ uid: `${res.json.id}@praxis.example`, start: '2030-01-08T09:00' });
      // The link works like an online booking's.
      const token = /token=([A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
      const link = await call(cancelLink, '/api/bookings/cancel', { query: { token } });
      expect(link.status).toBe(200);
      expect(link.json).toMatchObject({ reference: res.json.reference });
    });

    it('without an email nobody is emailed; cancelling or moving answers the number to call', async () => {
      const first = await staffBook(caller);
      expect((await readOutbox(t.outbox)).length).toBe(0);
      const moved = await api(moveFn, `/api/admin/booked-slots/${first.json.id}/move`, {
        method: 'POST',
        params: { id: first.json.id },
        body: { appointment_date: '2030-01-08', appointment_time: '10:00' },
      });
      expect(moved.status).toBe(200);
      expect(moved.json).toMatchObject({ patient_notified: false, patient_phone: '+492114445566' });
      const cancelled = await api(cancelFn, `/api/admin/booked-slots/${first.json.id}/cancel`, { method: 'POST', params: { id: first.json.id }, body: {} });
      expect(cancelled.status).toBe(200);
      expect(cancelled.json).toEqual({ id: first.json.id, reference: first.json.reference, patient_notified: false, patient_phone: '+492114445566' });
      expect(cancelled.headers.get('cache-control')).toBe('no-store');
      expect((await readOutbox(t.outbox)).length).toBe(0);
    });

    it('an online booking whose notice fails after the answer: the lists show the number to call until the day ends', async () => {
      const booked = await bookOnline({ email: 'zq@praxis.invalid' });
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      const res = await api(cancelFn, `/api/admin/booked-slots/${booked.id}/cancel`, { method: 'POST', params: { id: booked.id }, body: {} });
      expect(res.status).toBe(200);
      // Queued when the answer went: nothing to call yet (docs/decisions/035).
      expect(res.json).toMatchObject({ patient_notified: true, patient_phone: null });
      await settled();
      const row = (await list({ from: '2030-01-08', to: '2030-01-08', view: 'day-list' })).json.find((r: any) => r.id === booked.id);
      expect(row).toMatchObject({ status: 'cancelled_by_practice', needs_call: true, patient_notice: 'failed', patient: expect.objectContaining({ phone: '+492115550999' }) });
      expect(logs.join('\n')).not.toContain(online.phone);
      expect(logs.join('\n')).not.toContain('2115550999');
    });
  });

  describe('the staff views', () => {
    it('the online booking\'s details: name, birth date, phone, email, language; an audit row per view with its count', async () => {
      const mine = await bookOnline();
      await staffBook(caller);
      const day = await list({ from: '2030-01-08', to: '2030-01-08', view: 'day-list' });
      expect(day.status).toBe(200);
      expect(day.headers.get('cache-control')).toBe('no-store');
      expect(day.json.find((r: any) => r.id === mine.id).patient).toEqual({
        first_name: 'Zoë',
        last_name: 'Quastenflosser',
        birth_date: '1971-03-05',
        phone: '+492115550999',
        email: 'zq@example.org',
        language: 'de',
      });
      await list({ from: '2030-01-07', to: '2030-01-13', view: 'week' });
      await list({ from: '2030-01-09', to: '2030-01-09', view: 'day-list' }); // nobody that day: no row
      expect(await auditLabels()).toEqual([
        ['day-list', 'Tagesliste 08.01.2030 angesehen: 2 Patienten'],
        ['week', 'Wochenansicht 07.01.2030–13.01.2030 angesehen: 2 Patienten'],
      ]);
      const [entry] = (await t.db.select().from(auditLog)).filter((r) => r.action === 'view');
      expect(entry).toMatchObject({ userId: admin.id, userEmail: admin.email, entity: 'patient-details' });
      expect((await list({ view: 'nope' })).status).toBe(400);
    });

    it('a contact no configured key opens reads "unreadable" (no values), and the booking can still be cancelled', async () => {
      const lost = await bookOnline();
      const foreign = parseKeyRing(Buffer.alloc(32, 7).toString('hex'));
      const resealed = seal({ email: 'x@example.org', firstName: 'X', lastName: 'Y', language: 'de', token: 'T'.repeat(43), birthDate: '', phone: '' }, lost.id, foreign);
      await t.db.update(appointmentContacts).set(resealed).where(eq(appointmentContacts.bookingId, lost.id));
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.json).toEqual([expect.objectContaining({ id: lost.id, patient: null, patient_state: 'unreadable' })]);
      expect(await auditLabels()).toEqual([]);
      const cancelled = await api(cancelFn, `/api/admin/booked-slots/${lost.id}/cancel`, { method: 'POST', params: { id: lost.id }, body: {} });
      expect(cancelled.status).toBe(200);
      expect(cancelled.json).toMatchObject({ patient_notified: false, patient_phone: null });
    });

    it('an unknown booking is 404', async () => {
      const id = '6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11';
      expect((await api(cancelFn, `/api/admin/booked-slots/${id}/cancel`, { method: 'POST', params: { id }, body: {} })).status).toBe(404);
    });
  });

  describe('"Patient suchen"', () => {
    it('by any name part, case- and accent-insensitive, or by birth date; today and later only; the hit names the booking', async () => {
      const mine = await bookOnline();
      const phone = await staffBook(caller);
      // A booking of yesterday (before the clock moved) is not searched.
      vi.setSystemTime(new Date('2030-01-09T07:00:00+01:00'));
      admin = await createAdmin(t.db, { email: 'tomorrow@praxis.example' });
      await staffBook({ ...caller, first_name: 'Anna', appointment_date: '2030-01-09', appointment_time: '10:00' });

      const res = await search('muller');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.json).toEqual([
        {
          id: expect.any(String),
          reference: expect.any(String),
          appointment_date: '2030-01-09',
          appointment_time: '10:00',
          appointment_type_id: checkUp,
          type_name: 'Check-up',
          source: 'phone',
          first_name: 'Anna',
          last_name: 'Müller-Lüdenscheidt',
          birth_date: null,
          status: 'booked',
          needs_call: false,
          phone: '+492114445566',
        },
      ]);
      vi.setSystemTime(NOW);
      admin = await createAdmin(t.db, { email: 'today@praxis.example' });
      const names = async (q: string) => (await search(q)).json.map((h: any) => `${h.first_name} ${h.last_name}`);
      expect(await names('MÜLLER')).toEqual(['Jürgen Müller-Lüdenscheidt', 'Anna Müller-Lüdenscheidt']);
      expect(await names('jurgen ludensch')).toEqual(['Jürgen Müller-Lüdenscheidt']);
      expect(await names('zoe')).toEqual(['Zoë Quastenflosser']);
      expect(await names('05.03.1971')).toEqual(['Zoë Quastenflosser']);
      expect(await names('1971-03-05')).toEqual(['Zoë Quastenflosser']);
      expect(await names('nobody')).toEqual([]);
      expect((await search('quast')).json[0]).toMatchObject({ id: mine.id, birth_date: '1971-03-05' });
      expect((await search('jürgen')).json[0].id).toBe(phone.json.id);
      // One audit row per answer with hits, with the count; never the query.
      const labels = (await t.db.select().from(auditLog)).filter((r) => r.entityId === 'search').map((r) => r.label);
      expect(labels).toEqual(['Suche: 1 Treffer', 'Suche: 2 Treffer', 'Suche: 1 Treffer', 'Suche: 1 Treffer', 'Suche: 1 Treffer', 'Suche: 1 Treffer', 'Suche: 1 Treffer', 'Suche: 1 Treffer']);
      expect(JSON.stringify(await t.db.select().from(auditLog))).not.toMatch(/muller|Müller|jurgen|1971|quast/i);
      expect(logs.join('\n')).not.toMatch(/muller|Müller|jurgen|1971|quast/i);
    });

    it('folds ä/ae, ö/oe, ü/ue, ß/ss both ways, finds a phone number in any spelling and a booking by its reference', async () => {
      const umlaut = await staffBook({ first_name: 'Jörg', last_name: 'Müller', phone: '+49 211 5550123' });
      const spelled = await staffBook({ first_name: 'Joerg', last_name: 'Mueller', phone: '0211 7770000', appointment_time: '09:20' });
      const schaefer = await staffBook({ first_name: 'Anna', last_name: 'Schäfer', phone: '(0211) 888 11 22', appointment_time: '09:40' });
      const strasse = await staffBook({ first_name: 'Eva', last_name: 'Straße', phone: '0211 9990000', appointment_time: '10:00' });
      for (const r of [umlaut, spelled, schaefer, strasse]) expect(r.status).toBe(201);
      const ids = async (q: string) => {
        const res = await search(q);
        expect(res.status, q).toBe(200);
        return res.json.map((h: { id: string }) => h.id);
      };
      const both = [umlaut.json.id, spelled.json.id];
      expect(await ids('Mueller')).toEqual(both);
      expect(await ids('Müller')).toEqual(both);
      expect(await ids('muller')).toEqual(both);
      expect(await ids('jörg müller')).toEqual(both);
      expect(await ids('Schaefer')).toEqual([schaefer.json.id]);
      expect(await ids('Strasse')).toEqual([strasse.json.id]);
      expect(await ids('Straße')).toEqual([strasse.json.id]);
      // Digits compared, +49 read as the trunk 0: the number however it was stored and typed.
      for (const q of ['0211 5550123', '+49 211 555 01 23', '0049-211-5550123', '0211/555-0123', '5550123']) expect(await ids(q), q).toEqual([umlaut.json.id]);
      for (const q of ['+49 211 8881122', '0211 888 1122']) expect(await ids(q), q).toEqual([schaefer.json.id]);
      expect(await ids('0211 1234567')).toEqual([]);
      // The booking reference, as typed on the phone.
      expect(await ids(spelled.json.reference)).toEqual([spelled.json.id]);
      expect(await ids(spelled.json.reference.toLowerCase())).toEqual([spelled.json.id]);
      expect(await ids(`${spelled.json.reference.slice(0, 3)} ${spelled.json.reference.slice(3)}`)).toEqual([spelled.json.id]);
      // Hits say how the booking came in; never a value in the log or the audit trail.
      expect((await search('Mueller')).json.map((h: { source: string }) => h.source)).toEqual(['phone', 'phone']);
      expect(logs.join('\n')).not.toMatch(/Müller|Mueller|5550123|Schäfer|Straße/);
      expect(JSON.stringify(await t.db.select().from(auditLog))).not.toMatch(/Müller|Mueller|5550123|Schäfer|Straße|muller/i);
    });

    it('400 for a query under 2 characters or with control characters; 401 without a session', async () => {
      expect(errorsOf(await search('m')).q).toEqual(['admin.errors.searchTooShort']);
      expect(errorsOf(await api(patients, '/api/admin/patients')).q).toEqual(['admin.errors.searchTooShort']);
      expect(errorsOf(await search('mü\u202E')).q).toEqual(['admin.errors.invalidCharacters']);
      expect((await call(patients, '/api/admin/patients', { query: { q: 'muller' } })).status).toBe(401);
    });
  });
});

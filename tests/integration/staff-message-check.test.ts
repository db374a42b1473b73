/**
 * Staff messages that name what email should not carry
 * (docs/decisions/041-staff-messages-devices-printouts.md), through the real
 * handlers on both drivers: a request's message naming a medication, the
 * reason, specialty or topic, and a booking message (cancel, move, a block
 * that cancels) repeating the type's name, is 409 `message-names-details`
 * with the kinds found and changes nothing, unless `confirm: true`; a
 * message naming nothing goes as before. Neither the message nor the match
 * reaches a log or the audit trail.
 */
import { rm } from 'node:fs/promises';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import adminRequest from '../../netlify/functions/admin-request';
import blockedCollection from '../../netlify/functions/admin-blocked-dates';
import cancelFn from '../../netlify/functions/admin-booked-slot-cancel';
import moveFn from '../../netlify/functions/admin-booked-slot-move';
import bookings from '../../netlify/functions/bookings';
import requests from '../../netlify/functions/requests';
import { auditLog, blockedDates, bookedSlots, cancelledBookings, emailOutbox, patientRequests, rateLimits } from '../../db/schema';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { testPatient } from '../helpers/patient';
import { addBookableType } from '../helpers/fixtures';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const person = { first_name: 'Erika', last_name: 'Mustermann', birth_date: '1964-08-12', consent: true, language: 'de' };

describe.each(databaseKinds)('staff messages that name details on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'message-check-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  let typeId: string;
  const api = asAdmin(() => admin);
  const logs: string[] = [];
  let people = 0;

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    const type = await addBookableType(t.db, { name: 'Blutabnahme', nameEn: 'Blood test', description: 'Labor', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 });
    typeId = type.id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await settled();
    await t.db.delete(patientRequests);
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(blockedDates);
    await t.db.delete(rateLimits);
    await t.db.delete(auditLog);
    await rm(t.outbox, { recursive: true, force: true });
    logs.length = 0;
    captureConsole(logs);
  });

  /** What must never be in a log or an audit row: the messages' words. */
  const quiet = async (...words: string[]) => {
    const audit = JSON.stringify(await t.db.select().from(auditLog));
    for (const word of words) {
      expect(logs.join('\n')).not.toContain(word);
      expect(audit).not.toContain(word);
    }
  };

  describe('a request', () => {
    async function ask(body: Record<string, unknown>) {
      const n = ++people;
      const res = await call(requests, '/api/requests', { method: 'POST', body: { ...person, email: `patient-${n}@example.org`, ...body }, ip: `10.0.2.${n % 250}` });
      expect(res.status).toBe(201);
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      const [row] = await t.db.select().from(patientRequests);
      return row!.id;
    }
    const put = (id: string, body: unknown) => api(adminRequest, `/api/admin/requests/${id}`, { method: 'PUT', params: { id }, body });

    it.each([
      ['a medication, by name and not strength', { kind: 'prescription', insurance: 'statutory', delivery: 'pickup', medications: [{ name: 'Ramipril', strength: '5 mg' }] }, 'Ihr Ramipril-Rezept liegt bereit.', ['medication']],
      ['the specialty, as its doctor', { kind: 'referral', specialty: 'Kardiologie', reason: 'Herzrasen' }, 'Die Überweisung zum Kardiologen liegt bereit.', ['specialty']],
      ['the reason and the specialty', { kind: 'referral', specialty: 'HNO', reason: 'Schwindel seit Tagen' }, 'Wegen Schwindel bitte zum hno.', ['reason', 'specialty']],
      ['the topic, with ue for ü', { kind: 'callback', phone: '0211 5550123', callback_date: '2030-01-09', daypart: 'morning', topic: 'Rückenschmerzen' }, 'Zu Ihren Rueckenschmerzen: bitte kommen Sie vorbei.', ['topic']],
    ])('names %s: 409 with the kinds and nothing changed; with confirm: true it is sent', async (_name, body, message, names) => {
      const id = await ask(body);
      const queued = (await t.db.select().from(emailOutbox)).length;
      const refused = await put(id, { status: 'done', message });
      expect(refused.status).toBe(409);
      expect(refused.json).toMatchObject({ type: 'message-names-details', names });
      expect(JSON.stringify(refused.json)).not.toContain(message);
      const [row] = await t.db.select().from(patientRequests);
      expect(row).toMatchObject({ status: 'new', closedAt: null, messageSealed: null });
      expect(await t.db.select().from(emailOutbox)).toHaveLength(queued);

      const sent = await put(id, { status: 'done', message, confirm: true });
      expect(sent.status).toBe(200);
      expect(sent.json).toMatchObject({ status: 'done', patient_notified: true, message });
      const mail = (await readOutbox(t.outbox)).find((m) => m.subject.startsWith('Ihre Anfrage ist erledigt'));
      expect(mail?.text).toContain(message);
      await quiet(message);
    });

    it('sends a message that names nothing at once, and only checks what goes to the patient', async () => {
      const id = await ask({ kind: 'prescription', insurance: 'statutory', delivery: 'card', card_read_this_quarter: true, medications: [{ name: 'Metformin', strength: '1000 mg' }] });
      // In progress carries no message: nothing to check.
      expect((await put(id, { status: 'in_progress', message: 'Metformin' })).status).toBe(200);
      const done = await put(id, { status: 'done', message: 'Ihr Folgerezept ist ab morgen auf Ihrer Karte (1000 mg wie bisher).' });
      expect(done.status).toBe(200);
      expect(done.json).toMatchObject({ status: 'done', patient_notified: true });
    });

    it('checks a decline too, and refuses a confirm that is not a boolean with 400', async () => {
      const id = await ask({ kind: 'referral', specialty: 'Orthopädie', reason: 'Knieschmerzen' });
      expect(errorsOf(await put(id, { status: 'declined', message: 'Für die Orthopädie brauchen wir Sie hier.', confirm: 'yes' }))).toEqual({ confirm: ['admin.errors.invalid'] });
      const refused = await put(id, { status: 'declined', message: 'Wegen der Knieschmerzen bitte erst zu uns.' });
      expect(refused.json).toMatchObject({ status: 409, type: 'message-names-details', names: ['reason'] });
      expect((await put(id, { status: 'declined', message: 'Bitte vereinbaren Sie zuerst einen Termin bei uns.' })).status).toBe(200);
    });
  });

  describe('a booking message that repeats the type', () => {
    async function bookOnline(time = '09:00') {
      const res = await call(bookings, '/api/bookings', {
        method: 'POST',
        body: { appointment_type_id: typeId, appointment_date: '2030-01-08', appointment_time: time, ...testPatient, email: 'eb@example.org' },
      });
      expect(res.status).toBe(201);
      await settled();
      await rm(t.outbox, { recursive: true, force: true });
      return res.json.booking.id as string;
    }
    const cancel = (id: string, body: unknown) => api(cancelFn, `/api/admin/booked-slots/${id}/cancel`, { method: 'POST', params: { id }, body });
    const move = (id: string, body: unknown) => api(moveFn, `/api/admin/booked-slots/${id}/move`, { method: 'POST', params: { id }, body });
    const block = (body: Record<string, unknown>) => api(blockedCollection, '/api/admin/blocked-dates', { method: 'POST', body });

    it('"Absagen": 409 and the booking stays; a message in other words is sent; confirm sends the first', async () => {
      const id = await bookOnline();
      const refused = await cancel(id, { message: 'Ihre Blutabnahme muss leider ausfallen.' });
      expect(refused.status).toBe(409);
      expect(refused.json).toMatchObject({ type: 'message-names-details', names: ['type'] });
      expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
      expect(await t.db.select().from(cancelledBookings)).toHaveLength(0);
      // The English name counts too.
      expect((await cancel(id, { message: 'Your blood test cannot take place.' })).json).toMatchObject({ names: ['type'] });
      const sent = await cancel(id, { message: 'Ihre Blutabnahme muss leider ausfallen.', confirm: true });
      expect(sent.status).toBe(200);
      expect(sent.json).toMatchObject({ patient_notified: true });
      const [mail] = await readOutbox(t.outbox);
      expect(mail!.text).toContain('Ihre Blutabnahme muss leider ausfallen.');
      await quiet('muss leider ausfallen');
    });

    it('"Verschieben": 409 and the booking stays where it was; confirm moves it', async () => {
      const id = await bookOnline();
      const target = { appointment_date: '2030-01-09', appointment_time: '09:00' };
      const refused = await move(id, { ...target, message: 'Die Blutabnahmen am Dienstag entfallen.' });
      expect(refused.json).toMatchObject({ status: 409, type: 'message-names-details', names: ['type'] });
      const [row] = await t.db.select().from(bookedSlots);
      expect(row!.appointmentDate).toBe('2030-01-08');
      expect((await move(id, { ...target, message: 'Wir müssen Ihren Termin leider verschieben.' })).status).toBe(200);
      expect((await move(id, { appointment_date: '2030-01-10', appointment_time: '09:00', message: 'Die Blutabnahme ist nun am Donnerstag.', confirm: true })).status).toBe(200);
      await quiet('Donnerstag');
    });

    it('a block that cancels: 409 message-names-details after has-bookings, nothing saved; confirm blocks and cancels', async () => {
      await bookOnline();
      const day = { date: '2030-01-08', appointment_type_id: null, reason: 'Fortbildung' };
      expect((await block(day)).json).toMatchObject({ type: 'has-bookings' });
      const refused = await block({ ...day, bookings: 'cancel', message: 'Alle Blutabnahmen fallen aus.' });
      expect(refused.json).toMatchObject({ status: 409, type: 'message-names-details', names: ['type'] });
      expect(await t.db.select().from(blockedDates)).toHaveLength(0);
      expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
      // "keep" sends no message: nothing to check.
      const kept = await block({ ...day, date: '2030-01-08', start_time: '12:00', end_time: '13:00', bookings: 'keep', message: 'Blutabnahme' });
      expect(kept.status).toBe(201);
      const saved = await block({ ...day, bookings: 'cancel', message: 'Alle Blutabnahmen fallen aus.', confirm: true });
      expect(saved.status).toBe(201);
      expect(saved.json.cancelled).toHaveLength(1);
      await quiet('fallen aus');
    });
  });
});

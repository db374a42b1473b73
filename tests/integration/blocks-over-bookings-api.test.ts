/**
 * Blocks over bookings and date ranges
 * (docs/decisions/021-appointment-contact-and-practice-changes.md,
 * docs/decisions/020-reception.md) through the real handlers, on both
 * drivers: 409 has-bookings listing what a block would cover, "keep" and
 * "cancel" (patients told, tombstones, audited), a range of days in one
 * step (one row per day, one range id, at most 366 days), the range removed
 * in one step, and edits held to the same rule.
 */
import { rm } from 'node:fs/promises';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import blockedItem from '../../netlify/functions/admin-blocked-date';
import blockedCollection from '../../netlify/functions/admin-blocked-dates';
import bookedCollection from '../../netlify/functions/admin-booked-slots';
import availability from '../../netlify/functions/availability';
import bookings from '../../netlify/functions/bookings';
import { auditLog, blockedDates, bookedSlots, cancelledBookings, rateLimits } from '../../db/schema';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { captureConsole } from '../helpers/console-capture';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { icsOf } from '../helpers/ics';
import { testPatient, testCaller, testPatientE164, testCallerE164 } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');

describe.each(databaseKinds)('blocks over bookings on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'blocks-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  let checkUp: string;
  let vaccination: string;
  const api = asAdmin(() => admin);
  const logs: string[] = [];

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    checkUp = (await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 30 })).id;
    vaccination = (await addBookableType(t.db, { name: 'Impfung', description: 'Impfen', maxAdvanceDays: 30 })).id;
  });

  beforeEach(async () => {
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(blockedDates);
    await t.db.delete(rateLimits);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    captureConsole(logs);
  });

  let serial = 0;
  async function online(typeId: string, date: string, time: string) {
    const res = await call(bookings, '/api/bookings', {
      method: 'POST',
      ip: `192.0.2.${++serial % 250}`,
      body: { ...testPatient, email: `block${++serial}@example.org`, appointment_type_id: typeId, appointment_date: date, appointment_time: time },
    });
    expect(res.status).toBe(201);
    return res.json.booking as { id: string; reference: string };
  }
  async function phone(typeId: string, date: string, time: string) {
    const res = await api(bookedCollection, '/api/admin/booked-slots', { method: 'POST', body: { appointment_type_id: typeId, appointment_date: date, appointment_time: time, ...testCaller } });
    expect(res.status).toBe(201);
    return res.json as { id: string; reference: string };
  }
  const block = (body: Record<string, unknown>) => api(blockedCollection, '/api/admin/blocked-dates', { method: 'POST', body });
  const live = () => t.db.select().from(bookedSlots);

  it('409 has-bookings lists the bookings a block covers (its type or all, whole day or overlapping times) and saves nothing', async () => {
    const a = await online(checkUp, '2030-01-08', '09:00'); // 09:00–09:20
    const b = await phone(checkUp, '2030-01-08', '09:20'); // 09:20–09:40
    await online(checkUp, '2030-01-08', '09:40'); // after the block
    const v = await online(vaccination, '2030-01-08', '09:20'); // another type
    await settled();
    await rm(t.outbox, { recursive: true, force: true });

    const partial = await block({ date: '2030-01-08', start_time: '09:10', end_time: '09:30', appointment_type_id: checkUp });
    expect(partial.status).toBe(409);
    expect(partial.json.type).toBe('has-bookings');
    expect(partial.json.bookings).toEqual([
      // Who to call and whether an email will go, before anything is saved (docs/decisions/035).
      {
        id: a.id,
        reference: a.reference,
        appointment_date: '2030-01-08',
        appointment_time: '09:00',
        type_name: 'Check-up',
        begun: false,
        language: 'de',
        will_email: true,
        channel: 'email',
        patient: { first_name: testPatient.first_name, last_name: testPatient.last_name, phone: testPatientE164, email: expect.stringMatching(/^block\d+@example\.org$/) },
      },
      {
        id: b.id,
        reference: b.reference,
        appointment_date: '2030-01-08',
        appointment_time: '09:20',
        type_name: 'Check-up',
        begun: false,
        language: null,
        will_email: false,
        channel: 'call',
        patient: { first_name: testCaller.first_name, last_name: testCaller.last_name, phone: testCallerE164 },
      },
    ]);
    const allTypes = await block({ date: '2030-01-08', start_time: '09:10', end_time: '09:30' });
    expect(allTypes.json.bookings.map((x: { reference: string }) => x.reference)).toEqual([a.reference, b.reference, v.reference]);
    const range = await block({ date: '2030-01-07', end_date: '2030-01-10', appointment_type_id: vaccination });
    expect(range.json.bookings.map((x: { reference: string }) => x.reference)).toEqual([v.reference]);
    expect(await t.db.select().from(blockedDates)).toHaveLength(0);
    expect(await live()).toHaveLength(4);
    expect(await readOutbox(t.outbox)).toHaveLength(0);
    // A block that covers nothing is saved as before: 201 with its row.
    const free = await block({ date: '2030-01-09', reason: 'Fortbildung' });
    expect(free.status).toBe(201);
    expect(free.json).toMatchObject({ date: '2030-01-09', reason: 'Fortbildung', range_id: null });
  });

  it('"keep": the block is saved, the bookings stay, new bookings are refused', async () => {
    const a = await online(checkUp, '2030-01-08', '09:00');
    const res = await block({ date: '2030-01-08', bookings: 'keep' });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ blocked: [expect.objectContaining({ date: '2030-01-08' })], cancelled: [], kept: [] });
    expect((await live()).map((x) => x.id)).toEqual([a.id]);
    const refused = await call(bookings, '/api/bookings', {
      method: 'POST',
      body: { ...testPatient, email: 'late@example.org', appointment_type_id: checkUp, appointment_date: '2030-01-08', appointment_time: '10:00' },
    });
    expect(refused.status).toBe(409);
  });

  it('"cancel": each covered booking is cancelled as by "Absagen": patients emailed (METHOD:CANCEL), phone ones to call, tombstones, audited', async () => {
    const a = await online(checkUp, '2030-01-08', '09:00');
    const b = await phone(vaccination, '2030-01-08', '11:00');
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
    const res = await block({ date: '2030-01-08', reason: 'Praxis geschlossen', bookings: 'cancel' });
    expect(res.status).toBe(201);
    expect(res.json.blocked).toHaveLength(1);
    expect(res.json.cancelled).toEqual([
      { reference: a.reference, patient_notified: true, channel: 'email', patient: expect.objectContaining({ last_name: testPatient.last_name }) },
      { reference: b.reference, patient_notified: false, channel: 'call', patient_phone: testCallerE164, patient: { first_name: testCaller.first_name, last_name: testCaller.last_name, phone: testCallerE164 } },
    ]);
    expect(await live()).toHaveLength(0);
    expect((await t.db.select().from(cancelledBookings)).map((x) => [x.reference, x.patientNotified]).sort()).toEqual(
      [
        [a.reference, true],
        [b.reference, false],
      ].sort(),
    );
    const mails = await readOutbox(t.outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Terminabsage der Praxis: Check-up am 08\.01\.2030 um 09:00/);
    expect(icsOf(mails[0]!)).toMatchObject({ method: 'CANCEL', uid: `${a.id}@praxis.example` });
    const audit = (await t.db.select().from(auditLog)).map((x) => [x.action, x.entity, x.entityId, x.label]);
    expect(audit).toEqual(
      expect.arrayContaining([
        ['cancel', 'booked-slot', a.id, `${a.reference} (Check-up, 08.01.2030 09:00 Uhr)`],
        ['cancel', 'booked-slot', b.id, `${b.reference} (Impfung, 08.01.2030 11:00 Uhr)`],
        ['create', 'blocked-date', res.json.blocked[0].id, '08.01.2030, alle Terminarten'],
      ]),
    );
  });

  it('a date range in one step: one row per day sharing a range id, up to 366 days; the days leave the wizard; removed in one step', async () => {
    const res = await block({ date: '2030-01-08', end_date: '2030-01-11', appointment_type_id: checkUp, start_time: '08:20', end_time: '10:00', reason: 'Urlaub' });
    expect(res.status).toBe(201);
    expect(res.json.cancelled).toEqual([]);
    const rows = res.json.blocked as Array<{ id: string; date: string; range_id: string; start_time: string; end_time: string }>;
    expect(rows.map((r) => r.date)).toEqual(['2030-01-08', '2030-01-09', '2030-01-10', '2030-01-11']);
    expect(new Set(rows.map((r) => r.range_id)).size).toBe(1);
    expect(rows[0]!.range_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows.every((r) => r.start_time === '08:20' && r.end_time === '10:00')).toBe(true);
    const days = (await call(availability, '/api/availability', { query: { type: checkUp, from: '2030-01-08', to: '2030-01-11' } })).json.days;
    expect(days.every((d: { times: string[] }) => d.times[0] === '10:00')).toBe(true);
    // Other types keep those mornings.
    const other = (await call(availability, '/api/availability', { query: { type: vaccination, from: '2030-01-08', to: '2030-01-08' } })).json.days;
    expect(other[0].times[0]).toBe('08:20');

    expect((await api(blockedItem, `/api/admin/blocked-dates/${rows[1]!.id}`, { method: 'DELETE', params: { id: rows[1]!.id }, query: { scope: 'range' } })).status).toBe(204);
    expect(await t.db.select().from(blockedDates)).toHaveLength(0);

    const longest = await block({ date: '2030-01-08', end_date: '2031-01-09' });
    expect(longest.status).toBe(201);
    expect(longest.json.blocked).toHaveLength(367);
    expect(errorsOf(await block({ date: '2030-01-08', end_date: '2031-01-10' }))).toEqual({ end_date: ['admin.errors.rangeTooLong'] });
    expect(errorsOf(await block({ date: '2030-01-08', end_date: '2030-01-07' }))).toEqual({ end_date: ['admin.errors.endBeforeStart'] });
    expect(errorsOf(await block({ date: '2030-01-08', end_date: '2030-02-30' }))).toHaveProperty('end_date');
    expect(errorsOf(await block({ date: '2030-01-08', bookings: 'delete' }))).toHaveProperty('bookings');
  });

  it('an edit that would cover bookings is held to the same rule', async () => {
    const saved = await block({ date: '2030-01-09' });
    const id = saved.json.id as string;
    const a = await online(checkUp, '2030-01-08', '09:00');
    const put = (body: Record<string, unknown>) => api(blockedItem, `/api/admin/blocked-dates/${id}`, { method: 'PUT', params: { id }, body });
    const refused = await put({ date: '2030-01-08' });
    expect(refused.status).toBe(409);
    expect(refused.json.bookings.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect((await t.db.select().from(blockedDates))[0]!.date).toBe('2030-01-09');
    const kept = await put({ date: '2030-01-08', bookings: 'keep' });
    expect(kept.status).toBe(200);
    expect(kept.json.blocked[0]).toMatchObject({ id, date: '2030-01-08' });
    expect(await live()).toHaveLength(1);
    expect(errorsOf(await put({ date: '2030-01-08', end_date: '2030-01-09' }))).toEqual({ end_date: ['admin.errors.rangeOnlyNew'] });
  });
});

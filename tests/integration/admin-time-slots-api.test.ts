import { beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { appointmentTimeSlots, appointmentTypes, auditLog } from '../../db/schema';
import collection, { config as collectionConfig } from '../../netlify/functions/admin-time-slots';
import item, { config as itemConfig } from '../../netlify/functions/admin-time-slot';
import availability from '../../netlify/functions/availability';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

describe.each(databaseKinds)('admin time windows on %s', (kind) => {
  const t = useTestBed({ database: kind, now: new Date('2030-01-07T07:00:00+01:00') });
  let admin: TestUser;
  let checkUp: string;
  let vaccination: string;
  const api = asAdmin(() => admin);
  const at = (id: string) => ({ path: `/api/admin/time-slots/${id}`, params: { id } });

  beforeAll(async () => {
    // Monday 7 January 2030, 07:00 Berlin.
    admin = await createAdmin(t.db);
    const types = await t.db
      .insert(appointmentTypes)
      .values([
        { name: 'Check-up', description: 'c', slotDurationMinutes: 30 },
        { name: 'Impfung', description: 'i', slotDurationMinutes: 10 },
      ])
      .returning();
    checkUp = types[0]!.id;
    vaccination = types[1]!.id;
  });

  it('is routed as docs/architecture.md (HTTP API) says', () => {
    expect(collectionConfig.path).toBe('/api/admin/time-slots');
    expect(itemConfig.path).toBe('/api/admin/time-slots/:id');
  });

  it('creates windows (201, HH:mm) and lists them with type_name by weekday then start time', async () => {
    const post = (body: object) => api(collection, '/api/admin/time-slots', { method: 'POST', body });
    const a = await post({ appointment_type_id: checkUp, day_of_week: 2, start_time: '13:00', end_time: '14:00' });
    expect(a.status).toBe(201);
    expect(a.json).toEqual({ id: expect.any(String), appointment_type_id: checkUp, type_name: 'Check-up', day_of_week: 2, start_time: '13:00', end_time: '14:00' });
    await post({ appointment_type_id: vaccination, day_of_week: 2, start_time: '08:20', end_time: '12:00' });
    await post({ appointment_type_id: checkUp, day_of_week: 0, start_time: '10:00', end_time: '11:00' });
    const list = await api(collection, '/api/admin/time-slots');
    expect(list.status).toBe(200);
    expect(list.json.map((w: any) => `${w.day_of_week} ${w.start_time}-${w.end_time} ${w.type_name}`)).toEqual([
      '0 10:00-11:00 Check-up',
      '2 08:20-12:00 Impfung',
      '2 13:00-14:00 Check-up',
    ]);
  });

  it('a new window makes its times bookable at once; PUT moves them; DELETE removes them', async () => {
    const times = async () => {
      const res = await call(availability, '/api/availability', { query: { type: checkUp, from: '2030-01-09', to: '2030-01-09' } });
      return res.json.days.flatMap((d: { times: string[] }) => d.times);
    };
    expect(await times()).toEqual([]);
    const created = await api(collection, '/api/admin/time-slots', {
      method: 'POST',
      body: { appointment_type_id: checkUp, day_of_week: 3, start_time: '09:00', end_time: '10:00' },
    });
    expect(await times()).toEqual(['09:00', '09:30']);
    const { path, params } = at(created.json.id);
    const put = await api(item, path, { method: 'PUT', params, body: { appointment_type_id: checkUp, day_of_week: 3, start_time: '15:00', end_time: '16:00' } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id: created.json.id, start_time: '15:00', end_time: '16:00', type_name: 'Check-up' });
    expect(await times()).toEqual(['15:00', '15:30']);
    const del = await api(item, path, { method: 'DELETE', params });
    expect(del.status).toBe(204);
    expect(await times()).toEqual([]);
  });

  const validWindow = () => ({ appointment_type_id: checkUp, day_of_week: 1, start_time: '09:00', end_time: '17:00' });
  it.each([
    ['type missing', { appointment_type_id: undefined }, 'appointment_type_id', 'admin.errors.typeRequired'],
    ['type not an id', { appointment_type_id: 'Check-up' }, 'appointment_type_id', 'admin.errors.typeRequired'],
    ['weekday 7', { day_of_week: 7 }, 'day_of_week', 'admin.errors.weekdayRequired'],
    ['start missing', { start_time: undefined }, 'start_time', 'admin.errors.timeInvalid'],
    ['start with seconds', { start_time: '09:00:00' }, 'start_time', 'admin.errors.timeInvalid'],
    ['end 24:00', { end_time: '24:00' }, 'end_time', 'admin.errors.timeInvalid'],
    ['start equal to end', { start_time: '10:00', end_time: '10:00' }, 'end_time', 'admin.errors.startBeforeEnd'],
    ['start after end', { start_time: '17:00', end_time: '09:00' }, 'end_time', 'admin.errors.startBeforeEnd'],
  ])('400 and nothing saved: %s', async (_, change, field, key) => {
    const before = await t.db.select().from(appointmentTimeSlots);
    const res = await api(collection, '/api/admin/time-slots', { method: 'POST', body: { ...validWindow(), ...change } });
    expect(errorsOf(res)[field]).toEqual([key]);
    const { path, params } = at(before[0]!.id);
    expect(errorsOf(await api(item, path, { method: 'PUT', params, body: { ...validWindow(), ...change } }))[field]).toEqual([key]);
    expect(await t.db.select().from(appointmentTimeSlots)).toEqual(before);
  });

  it('days_of_week makes the same window for several weekdays in one step: 201 with one row each, Monday first, each audited', async () => {
    const res = await api(collection, '/api/admin/time-slots', {
      method: 'POST',
      body: { appointment_type_id: vaccination, days_of_week: [7, 5, 1, 3], start_time: '16:00', end_time: '17:00' },
    });
    expect(res.status).toBe(201);
    expect(res.json.map((w: any) => [w.day_of_week, w.start_time, w.end_time, w.type_name])).toEqual([
      [1, '16:00', '17:00', 'Impfung'],
      [3, '16:00', '17:00', 'Impfung'],
      [5, '16:00', '17:00', 'Impfung'],
      [0, '16:00', '17:00', 'Impfung'],
    ]);
    // Bookable at once on each of those days (Mon 14, Wed 16, Fri 18, Sun 20 January 2030), not on the others.
    const { days } = (await call(availability, '/api/availability', { query: { type: vaccination, from: '2030-01-14', to: '2030-01-20' } })).json;
    const open = days.filter((d: { times: string[] }) => d.times.includes('16:50')).map((d: { date: string }) => d.date);
    expect(open).toEqual(['2030-01-14', '2030-01-16', '2030-01-18', '2030-01-20']);
    const entries = await t.db.select().from(auditLog).where(inArray(auditLog.entityId, res.json.map((w: { id: string }) => w.id)));
    expect(entries.map((e) => e.label).sort()).toEqual(
      ['Impfung, Fr 16:00–17:00 Uhr', 'Impfung, Mi 16:00–17:00 Uhr', 'Impfung, Mo 16:00–17:00 Uhr', 'Impfung, So 16:00–17:00 Uhr'],
    );
  });

  it.each([
    ['no weekday at all', { day_of_week: undefined }],
    ['an empty list', { day_of_week: undefined, days_of_week: [] }],
    ['0 (the API counts 1 = Monday … 7 = Sunday)', { day_of_week: undefined, days_of_week: [0, 1] }],
    ['8', { day_of_week: undefined, days_of_week: [8] }],
    ['a day twice', { day_of_week: undefined, days_of_week: [2, 2] }],
    ['a day as text', { day_of_week: undefined, days_of_week: ['Mo'] }],
    ['not a list', { day_of_week: undefined, days_of_week: 3 }],
    ['both day_of_week and days_of_week', { days_of_week: [2] }],
  ])('days_of_week: 400 naming the field and nothing saved for %s', async (_, change) => {
    const before = await t.db.select().from(appointmentTimeSlots);
    const res = await api(collection, '/api/admin/time-slots', { method: 'POST', body: { ...validWindow(), ...change } });
    expect(Object.keys(errorsOf(res))).toEqual(['days_of_week']);
    expect(errorsOf(res).days_of_week).toContain('admin.errors.weekdayRequired');
    expect(await t.db.select().from(appointmentTimeSlots)).toEqual(before);
  });

  it('400 for a type that does not exist', async () => {
    const res = await api(collection, '/api/admin/time-slots', {
      method: 'POST',
      body: { ...validWindow(), appointment_type_id: '6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11' },
    });
    expect(errorsOf(res).appointment_type_id).toEqual(['admin.errors.typeUnknown']);
  });

  it('404 for an unknown or malformed id', async () => {
    for (const id of ['6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11', 'abc']) {
      const { path, params } = at(id);
      expect((await api(item, path, { method: 'PUT', params, body: validWindow() })).status).toBe(404);
      expect((await api(item, path, { method: 'DELETE', params })).status).toBe(404);
    }
  });
});

import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { appointmentTimeSlots, appointmentTypes, blockedDates, bookedSlots } from '../../db/schema';
import collection, { config as collectionConfig } from '../../netlify/functions/admin-appointment-types';
import item, { config as itemConfig } from '../../netlify/functions/admin-appointment-type';
import publicTypes from '../../netlify/functions/appointment-types';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

const valid = {
  name: 'Gesundheitsberatung',
  name_en: 'Health advice',
  description: 'Beratung zu Vorsorge und Lebensstil.',
  description_en: '',
  max_advance_days: 14,
  slot_duration_minutes: 20,
  max_slots_per_time: 1,
  price_cents: 4500,
};

const hash = (n: number) => n.toString(16).padStart(64, '0');

describe.each(databaseKinds)('admin appointment types on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const itemPath = (id: string) => ({ path: `/api/admin/appointment-types/${id}`, params: { id } });

  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });

  it('is routed as docs/architecture.md (HTTP API) says', () => {
    expect(collectionConfig.path).toBe('/api/admin/appointment-types');
    expect(itemConfig.path).toBe('/api/admin/appointment-types/:id');
  });

  it('creates (201), lists by name, updates (200) and the public list shows the change at once', async () => {
    const created = await api(collection, '/api/admin/appointment-types', { method: 'POST', body: valid });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ ...valid, description_en: null, online_bookable: true, id: expect.any(String), updated_at: expect.any(String) });
    await t.db.insert(appointmentTimeSlots).values({ appointmentTypeId: created.json.id, dayOfWeek: 1, startTime: '09:00', endTime: '12:00' });
    const other = await api(collection, '/api/admin/appointment-types', { method: 'POST', body: { ...valid, name: 'Abstrich', price_cents: null } });
    expect(other.json.price_cents).toBeNull();

    const list = await api(collection, '/api/admin/appointment-types');
    expect(list.status).toBe(200);
    expect(list.json.map((x: { name: string }) => x.name)).toEqual(['Abstrich', 'Gesundheitsberatung']);

    const { path, params } = itemPath(created.json.id);
    const updated = await api(item, path, { method: 'PUT', params, body: { ...valid, name: '  Beratung  ', max_advance_days: 0, price_cents: undefined } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ id: created.json.id, name: 'Beratung', max_advance_days: 0, price_cents: null });
    expect(Date.parse(updated.json.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.json.updated_at));

    const pub = await call(publicTypes, '/api/appointment-types');
    expect(pub.json.find((x: { id: string }) => x.id === created.json.id)).toMatchObject({ name: 'Beratung', max_advance_days: 0 });
  });

  it('online_bookable false pauses a type online: gone from the public list, kept in the admin list; true resumes it', async () => {
    const created = await api(collection, '/api/admin/appointment-types', { method: 'POST', body: { ...valid, name: 'Pausierbar', online_bookable: false } });
    expect(created.status).toBe(201);
    expect(created.json.online_bookable).toBe(false);
    await t.db.insert(appointmentTimeSlots).values({ appointmentTypeId: created.json.id, dayOfWeek: 2, startTime: '09:00', endTime: '12:00' });
    const publicIds = async () => (await call(publicTypes, '/api/appointment-types')).json.map((x: { id: string }) => x.id);
    expect(await publicIds()).not.toContain(created.json.id);
    const adminList = await api(collection, '/api/admin/appointment-types');
    expect(adminList.json.find((x: { id: string }) => x.id === created.json.id)).toMatchObject({ online_bookable: false });
    const { path, params } = itemPath(created.json.id);
    const resumed = await api(item, path, { method: 'PUT', params, body: { ...valid, name: 'Pausierbar', online_bookable: true } });
    expect(resumed.json.online_bookable).toBe(true);
    expect(await publicIds()).toContain(created.json.id);
    const bad = await api(item, path, { method: 'PUT', params, body: { ...valid, online_bookable: 'nein' } });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad)).toEqual({ online_bookable: ['admin.errors.invalid'] });
  });

  it.each([
    ['name missing', { name: undefined }, 'name', 'admin.errors.nameRequired'],
    ['name blank', { name: '   ' }, 'name', 'admin.errors.nameRequired'],
    ['name too long', { name: 'x'.repeat(101) }, 'name', 'admin.errors.tooLong'],
    ['description missing', { description: '' }, 'description', 'admin.errors.descriptionRequired'],
    ['max_advance_days below 0', { max_advance_days: -1 }, 'max_advance_days', 'admin.errors.maxAdvanceDaysRange'],
    ['max_advance_days above 365', { max_advance_days: 366 }, 'max_advance_days', 'admin.errors.maxAdvanceDaysRange'],
    ['max_advance_days fractional', { max_advance_days: 1.5 }, 'max_advance_days', 'admin.errors.maxAdvanceDaysRange'],
    ['max_advance_days as text', { max_advance_days: '14' }, 'max_advance_days', 'admin.errors.maxAdvanceDaysRange'],
    ['slot duration below 5', { slot_duration_minutes: 0 }, 'slot_duration_minutes', 'admin.errors.slotDurationRange'],
    ['slot duration above 180', { slot_duration_minutes: 185 }, 'slot_duration_minutes', 'admin.errors.slotDurationRange'],
    ['slot duration not a step of 5', { slot_duration_minutes: 22 }, 'slot_duration_minutes', 'admin.errors.slotDurationStep'],
    ['max slots below 1', { max_slots_per_time: 0 }, 'max_slots_per_time', 'admin.errors.maxSlotsRange'],
    ['max slots above 10', { max_slots_per_time: 11 }, 'max_slots_per_time', 'admin.errors.maxSlotsRange'],
    ['negative price', { price_cents: -1 }, 'price_cents', 'admin.errors.priceInvalid'],
    ['fractional price', { price_cents: 10.5 }, 'price_cents', 'admin.errors.priceInvalid'],
  ])('400 and nothing saved: %s', async (_, change, field, key) => {
    const before = await t.db.select().from(appointmentTypes);
    const res = await api(collection, '/api/admin/appointment-types', { method: 'POST', body: { ...valid, ...change } });
    expect(errorsOf(res)[field]).toEqual([key]);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const { path, params } = itemPath(before[0]!.id);
    const put = await api(item, path, { method: 'PUT', params, body: { ...valid, ...change } });
    expect(errorsOf(put)[field]).toEqual([key]);
    expect(await t.db.select().from(appointmentTypes)).toEqual(before);
  });

  it('404 for an unknown or malformed id (PUT and DELETE)', async () => {
    for (const id of ['6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11', 'nicht-da', '1']) {
      const { path, params } = itemPath(id);
      expect((await api(item, path, { method: 'PUT', params, body: valid })).status).toBe(404);
      expect((await api(item, path, { method: 'DELETE', params })).status).toBe(404);
    }
  });

  it('DELETE removes the type with its windows, its own blocked dates and past bookings; all-type blocks stay', async () => {
    vi.useFakeTimers({ now: new Date('2030-03-05T10:00:00+01:00'), toFake: ['Date'] });
    // A session issued at the faked time, so its token is valid then.
    admin = await createAdmin(t.db);
    const type = await addBookableType(t.db, { name: 'Weg damit', description: 'd' }, { days: [2], start: '09:00', end: '10:00' });
    await t.db.insert(blockedDates).values([{ date: '2030-03-10', appointmentTypeId: type.id }, { date: '2030-03-11', reason: 'alle' }]);
    // Earlier today, already begun: not a future booking.
    await t.db.insert(bookedSlots).values({ appointmentTypeId: type.id, appointmentDate: '2030-03-05', appointmentTime: '10:00', seat: 1, cancellationTokenHash: hash(1) });
    const { path, params } = itemPath(type.id);
    const res = await api(item, path, { method: 'DELETE', params });
    vi.useRealTimers();
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await t.db.select().from(appointmentTypes).where(eq(appointmentTypes.id, type.id))).toEqual([]);
    expect(await t.db.select().from(appointmentTimeSlots).where(eq(appointmentTimeSlots.appointmentTypeId, type.id))).toEqual([]);
    expect((await t.db.select().from(blockedDates)).map((b) => b.reason)).toContain('alle');
    expect(await t.db.select().from(blockedDates).where(eq(blockedDates.appointmentTypeId, type.id))).toEqual([]);
  });

  it.each([
    ['later today', '2030-03-05', '10:20'],
    ['tomorrow', '2030-03-06', '08:00'],
  ])('DELETE is refused with 409 while a booking lies ahead (%s, Berlin time) and nothing is removed', async (_, date, time) => {
    vi.useFakeTimers({ now: new Date('2030-03-05T10:00:00+01:00'), toFake: ['Date'] });
    // A session issued at the faked time, so its token is valid then.
    admin = await createAdmin(t.db);
    const type = await addBookableType(t.db, { name: `Gebucht ${date} ${time}`, description: 'd' }, { days: [2], start: '09:00', end: '10:00' });
    await t.db.insert(bookedSlots).values({
      appointmentTypeId: type.id,
      appointmentDate: date,
      appointmentTime: time,
      seat: 1,
      cancellationTokenHash: hash(Math.floor(Math.random() * 1e9) + 100),
    });
    const { path, params } = itemPath(type.id);
    const res = await api(item, path, { method: 'DELETE', params });
    vi.useRealTimers();
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ type: 'type-has-future-bookings', status: 409 });
    expect(res.json.detail).toMatch(/zukünftigen gebuchten Termin/);
    expect(await t.db.select().from(appointmentTypes).where(eq(appointmentTypes.id, type.id))).toHaveLength(1);
    expect(await t.db.select().from(appointmentTimeSlots).where(eq(appointmentTimeSlots.appointmentTypeId, type.id))).toHaveLength(1);
  });

  it('400 for a body that is not JSON, 415 for another media type', async () => {
    const bad = await api(collection, '/api/admin/appointment-types', { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    const form = await api(collection, '/api/admin/appointment-types', { method: 'POST', body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
  });
});

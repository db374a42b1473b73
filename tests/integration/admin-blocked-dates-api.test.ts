import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { blockedDates } from '../../db/schema';
import collection, { config as collectionConfig } from '../../netlify/functions/admin-blocked-dates';
import item, { config as itemConfig } from '../../netlify/functions/admin-blocked-date';
import availability from '../../netlify/functions/availability';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

describe.each(databaseKinds)('admin blocked dates on %s', (kind) => {
  const t = useTestBed({ database: kind, now: new Date('2030-01-07T07:00:00+01:00') });
  let admin: TestUser;
  let checkUp: string;
  let vaccination: string;
  const api = asAdmin(() => admin);
  const at = (id: string) => ({ path: `/api/admin/blocked-dates/${id}`, params: { id } });

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    checkUp = (await addBookableType(t.db, { name: 'Check-up', description: 'c' }, { end: '09:00' })).id;
    vaccination = (await addBookableType(t.db, { name: 'Impfung', description: 'i' }, { end: '09:00' })).id;
  });

  it('is routed as docs/architecture.md (HTTP API) says', () => {
    expect(collectionConfig.path).toBe('/api/admin/blocked-dates');
    expect(itemConfig.path).toBe('/api/admin/blocked-dates/:id');
  });

  const selectable = async (type: string) => {
    const res = await call(availability, '/api/availability', { query: { type, from: '2030-01-08', to: '2030-01-10' } });
    return res.json.days.map((d: { date: string }) => d.date);
  };

  it("creates for one type or, with '__ALL__' or null, for every type; lists newest first with type_name", async () => {
    const post = (body: object) => api(collection, '/api/admin/blocked-dates', { method: 'POST', body });
    const one = await post({ date: '2030-01-08', reason: '  Fortbildung ', appointment_type_id: checkUp });
    expect(one.status).toBe(201);
    expect(one.json).toEqual({
      id: expect.any(String),
      date: '2030-01-08',
      reason: 'Fortbildung',
      appointment_type_id: checkUp,
      type_name: 'Check-up',
      start_time: null,
      end_time: null,
      range_id: null,
    });
    const all = await post({ date: '2030-01-09', reason: '', appointment_type_id: '__ALL__' });
    expect(all.json).toMatchObject({ date: '2030-01-09', reason: null, appointment_type_id: null, type_name: null });
    const allNull = await post({ date: '2030-01-24', appointment_type_id: null });
    expect(allNull.json).toMatchObject({ appointment_type_id: null });

    expect(await selectable(checkUp)).toEqual(['2030-01-10']);
    expect(await selectable(vaccination)).toEqual(['2030-01-08', '2030-01-10']);

    const list = await api(collection, '/api/admin/blocked-dates');
    expect(list.status).toBe(200);
    expect(list.json.map((b: any) => `${b.date} ${b.type_name ?? 'alle'}`)).toEqual(['2030-01-24 alle', '2030-01-09 alle', '2030-01-08 Check-up']);
  });

  it('PUT changes date, reason and type; DELETE unblocks', async () => {
    const [row] = await t.db.insert(blockedDates).values({ date: '2030-01-10', appointmentTypeId: vaccination }).returning();
    expect(await selectable(vaccination)).not.toContain('2030-01-10');
    const { path, params } = at(row!.id);
    const put = await api(item, path, { method: 'PUT', params, body: { date: '2030-01-10', reason: 'Urlaub', appointment_type_id: '__ALL__' } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ id: row!.id, date: '2030-01-10', reason: 'Urlaub', appointment_type_id: null, type_name: null, start_time: null, end_time: null, range_id: null });
    expect(await selectable(checkUp)).not.toContain('2030-01-10');
    const del = await api(item, path, { method: 'DELETE', params });
    expect(del.status).toBe(204);
    expect(await selectable(checkUp)).toContain('2030-01-10');
  });

  it.each([
    ['date missing', { date: undefined }, 'date', 'admin.errors.dateRequired'],
    ['date empty', { date: '' }, 'date', 'admin.errors.dateRequired'],
    ['not a real date', { date: '2030-02-30' }, 'date', 'admin.errors.dateRequired'],
    ['German format', { date: '08.01.2030' }, 'date', 'admin.errors.dateRequired'],
    ['reason too long', { reason: 'x'.repeat(501) }, 'reason', 'admin.errors.tooLong'],
    ['type not an id', { appointment_type_id: 'Check-up' }, 'appointment_type_id', 'admin.errors.typeRequired'],
    ['start time only', { start_time: '10:00' }, 'end_time', 'admin.errors.timeRangeBoth'],
    ['end time only', { end_time: '12:00' }, 'start_time', 'admin.errors.timeRangeBoth'],
    ['start after end', { start_time: '12:00', end_time: '10:00' }, 'end_time', 'admin.errors.startBeforeEnd'],
    ['start equals end', { start_time: '10:00', end_time: '10:00' }, 'end_time', 'admin.errors.startBeforeEnd'],
    ['not a time', { start_time: '25:00', end_time: '26:00' }, 'start_time', 'admin.errors.timeInvalid'],
  ])('400 and nothing saved: %s', async (_, change, field, key) => {
    const before = await t.db.select().from(blockedDates);
    const body = { date: '2030-01-11', reason: null, appointment_type_id: null, ...change };
    expect(errorsOf(await api(collection, '/api/admin/blocked-dates', { method: 'POST', body }))[field]).toEqual([key]);
    const { path, params } = at(before[0]!.id);
    expect(errorsOf(await api(item, path, { method: 'PUT', params, body }))[field]).toEqual([key]);
    expect(await t.db.select().from(blockedDates)).toEqual(before);
  });

  it('a time range blocks only the times whose appointment overlaps it, for one type; the list shows the range', async () => {
    const times = async (type: string) => {
      const res = await call(availability, '/api/availability', { query: { type, from: '2030-01-08', to: '2030-01-08' } });
      return res.json.days[0]?.times;
    };
    // Windows 08:20–09:00, 20 minutes: 08:20 and 08:40. A block 08:50–09:00 overlaps 08:40–09:00 only.
    // (Check-up has a whole-day block on this date from the first test; Impfung has none.)
    expect(await times(vaccination)).toEqual(['08:20', '08:40']);
    const res = await api(collection, '/api/admin/blocked-dates', {
      method: 'POST',
      body: { date: '2030-01-08', reason: 'Teambesprechung', appointment_type_id: vaccination, start_time: '08:50', end_time: '09:00' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ date: '2030-01-08', start_time: '08:50', end_time: '09:00', type_name: 'Impfung' });
    try {
      expect(await times(vaccination)).toEqual(['08:20']);
      const list = await api(collection, '/api/admin/blocked-dates');
      expect(list.json.find((b: any) => b.id === res.json.id)).toMatchObject({ start_time: '08:50', end_time: '09:00' });
      // PUT back to the whole day: both times go, the date is no longer selectable.
      const { path, params } = at(res.json.id);
      const put = await api(item, path, { method: 'PUT', params, body: { date: '2030-01-08', appointment_type_id: vaccination, start_time: '', end_time: null } });
      expect(put.json).toMatchObject({ start_time: null, end_time: null });
      expect(await selectable(vaccination)).not.toContain('2030-01-08');
    } finally {
      await t.db.delete(blockedDates).where(eq(blockedDates.id, res.json.id));
    }
  });

  it('the database refuses a range with only one end or start not before end', async () => {
    const refused = async (values: { startTime?: string | null; endTime?: string | null }) => {
      try {
        await t.db.insert(blockedDates).values({ date: '2030-02-01', ...values });
        return null;
      } catch (error) {
        const e = error as { constraint?: string; cause?: { constraint?: string } };
        return e.constraint ?? e.cause?.constraint;
      }
    };
    expect(await refused({ startTime: '10:00' })).toBe('blocked_dates_time_range');
    expect(await refused({ endTime: '10:00' })).toBe('blocked_dates_time_range');
    expect(await refused({ startTime: '11:00', endTime: '10:00' })).toBe('blocked_dates_time_range');
  });

  it('400 for a type that does not exist', async () => {
    const res = await api(collection, '/api/admin/blocked-dates', {
      method: 'POST',
      body: { date: '2030-01-11', appointment_type_id: '6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11' },
    });
    expect(errorsOf(res).appointment_type_id).toEqual(['admin.errors.typeUnknown']);
  });

  it('404 for an unknown or malformed id', async () => {
    for (const id of ['6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11', 'xyz']) {
      const { path, params } = at(id);
      expect((await api(item, path, { method: 'PUT', params, body: { date: '2030-01-11' } })).status).toBe(404);
      expect((await api(item, path, { method: 'DELETE', params })).status).toBe(404);
    }
  });
});

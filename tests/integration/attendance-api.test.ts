/**
 * Arrival (docs/decisions/026-arrival-practice-notice-retention.md) through
 * the real handlers on PGlite and on a real Postgres: PUT
 * /api/admin/booked-slots/:id/attendance marks and undoes on the
 * appointment's own Berlin day only, refuses other days and a no-show
 * before the start, is audited, shows in GET /api/admin/booked-slots, is
 * cleared by a move, and feeds the dashboard's no-shows per type.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import attendanceFn, { config } from '../../netlify/functions/admin-booked-slot-attendance';
import moveFn from '../../netlify/functions/admin-booked-slot-move';
import bookedSlotsFn from '../../netlify/functions/admin-booked-slots';
import statsFn from '../../netlify/functions/admin-stats';
import { auditLog, bookedSlots } from '../../db/schema';
import { asAdmin, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { addBookableType } from '../helpers/fixtures';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Wednesday 9 January 2030, 10:00 in Berlin.
const NOW = new Date('2030-01-09T10:00:00+01:00');

describe.each(databaseKinds)('arrival on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example' } });
  let admin: TestUser;
  let checkUp: string;
  let vaccination: string;
  const api = asAdmin(() => admin);

  beforeAll(async () => {
    checkUp = (await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', slotDurationMinutes: 20 }, { start: '08:00', end: '18:00' })).id;
    vaccination = (await addBookableType(t.db, { name: 'Impfung', description: 'Impfung', slotDurationMinutes: 10 }, { start: '08:00', end: '18:00' })).id;
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    admin = await createAdmin(t.db);
    await t.db.delete(bookedSlots);
    await t.db.delete(auditLog);
  });

  /** A phone booking of `typeId` at date and time (no patient data needed for arrival). */
  async function booking(date: string, time: string, values: Partial<typeof bookedSlots.$inferInsert> = {}) {
    const [row] = await t.db
      .insert(bookedSlots)
      .values({ appointmentTypeId: checkUp, appointmentDate: date, appointmentTime: time, seat: 1, source: 'phone', ...values })
      .returning();
    return row!;
  }
  const mark = (id: string, attendance: unknown) =>
    api(attendanceFn, `/api/admin/booked-slots/${id}/attendance`, { method: 'PUT', params: { id }, body: attendance === undefined ? {} : { attendance } });
  const stored = async (id: string) => (await t.db.select({ a: bookedSlots.attendance }).from(bookedSlots).where(eq(bookedSlots.id, id)))[0]?.a;
  const listed = async (id: string) => {
    const res = await api(bookedSlotsFn, '/api/admin/booked-slots', { query: { from: '2030-01-08', to: '2030-01-10' } });
    expect(res.status).toBe(200);
    return (res.json as Array<{ id: string; attendance: unknown }>).find((r) => r.id === id);
  };

  it('is routed at /api/admin/booked-slots/:id/attendance', () => expect(config.path).toBe('/api/admin/booked-slots/:id/attendance'));

  it("marks a booking of today arrived or not arrived, undoes it, and the booked list shows the mark", async () => {
    const b = await booking('2030-01-09', '09:00');
    expect((await listed(b.id))?.attendance).toBeNull();
    const arrived = await mark(b.id, 'arrived');
    expect(arrived.status).toBe(200);
    expect(arrived.json).toMatchObject({ id: b.id, reference: b.reference, appointment_date: '2030-01-09', appointment_time: '09:00', type_name: 'Check-up', attendance: 'arrived' });
    expect((await listed(b.id))?.attendance).toBe('arrived');
    expect((await mark(b.id, null)).json.attendance).toBeNull();
    expect(await stored(b.id)).toBeNull();
    expect((await mark(b.id, 'no_show')).status).toBe(200);
    expect((await listed(b.id))?.attendance).toBe('no_show');
    // Late in the day (23:59 Berlin) it can still be corrected.
    vi.setSystemTime(new Date('2030-01-09T23:59:00+01:00'));
    admin = await createAdmin(t.db);
    expect((await mark(b.id, 'arrived')).status).toBe(200);
    expect(await stored(b.id)).toBe('arrived');
  });

  it('an early patient may be marked arrived before the start; "nicht erschienen" waits for the start (409 not-begun)', async () => {
    const later = await booking('2030-01-09', '15:00');
    const refused = await mark(later.id, 'no_show');
    expect(refused.status).toBe(409);
    expect(refused.json.reason).toBe('not-begun');
    expect(await stored(later.id)).toBeNull();
    expect((await mark(later.id, 'arrived')).status).toBe(200);
    expect(await stored(later.id)).toBe('arrived');
  });

  it('refuses a future day (409 future) and a day that has ended (409 day-ended), changing nothing', async () => {
    const tomorrow = await booking('2030-01-10', '09:00');
    const yesterday = await booking('2030-01-08', '09:00', { attendance: 'arrived' });
    for (const value of ['arrived', 'no_show', null]) {
      const future = await mark(tomorrow.id, value);
      expect(future.status).toBe(409);
      expect(future.json.reason).toBe('future');
      const ended = await mark(yesterday.id, value);
      expect(ended.status).toBe(409);
      expect(ended.json.reason).toBe('day-ended');
    }
    expect(await stored(tomorrow.id)).toBeNull();
    expect(await stored(yesterday.id)).toBe('arrived');
    // Berlin midnight closes the day: 23:00 UTC is already the 10th in Berlin.
    const today = await booking('2030-01-09', '09:20');
    vi.setSystemTime(new Date('2030-01-09T23:00:00Z'));
    admin = await createAdmin(t.db);
    expect((await mark(today.id, 'arrived')).json.reason).toBe('day-ended');
    expect((await mark(tomorrow.id, 'arrived')).status).toBe(200);
    expect(await t.db.select().from(auditLog)).toHaveLength(1);
  });

  it('bad input is 400 naming the field, an unknown booking 404, no session 401; nothing changes', async () => {
    const b = await booking('2030-01-09', '09:00');
    for (const body of [{ attendance: 'maybe' }, { attendance: 1 }, {}]) {
      const res = await api(attendanceFn, `/api/admin/booked-slots/${b.id}/attendance`, { method: 'PUT', params: { id: b.id }, body });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual({ attendance: ['admin.errors.attendanceInvalid'] });
    }
    expect((await mark('00000000-0000-4000-8000-000000000000', 'arrived')).status).toBe(404);
    expect((await mark('not-an-id', 'arrived')).status).toBe(404);
    const anonymous = await call(attendanceFn, `/api/admin/booked-slots/${b.id}/attendance`, {
      method: 'PUT',
      params: { id: b.id },
      headers: { origin: siteOrigin() },
      body: { attendance: 'arrived' },
    });
    expect(anonymous.status).toBe(401);
    expect(await stored(b.id)).toBeNull();
    expect(await t.db.select().from(auditLog)).toHaveLength(0);
  });

  it('writes one audit row per change, naming the booking and the mark, by the staff account', async () => {
    const b = await booking('2030-01-09', '09:00');
    await mark(b.id, 'arrived');
    await mark(b.id, null);
    await mark(b.id, 'no_show');
    const rows = await t.db.select().from(auditLog).orderBy(auditLog.at);
    expect(rows.map((r) => [r.action, r.entity, r.entityId, r.userEmail])).toEqual(
      Array.from({ length: 3 }, () => ['attendance', 'booked-slot', b.id, admin.email]),
    );
    expect(rows.map((r) => r.label)).toEqual([
      `${b.reference} (Check-up, 09.01.2030 09:00 Uhr): erschienen`,
      `${b.reference} (Check-up, 09.01.2030 09:00 Uhr): Ankunft zurückgenommen`,
      `${b.reference} (Check-up, 09.01.2030 09:00 Uhr): nicht erschienen`,
    ]);
  });

  it('a move takes the mark away: it was for the old time', async () => {
    const b = await booking('2030-01-09', '15:00');
    expect((await mark(b.id, 'arrived')).status).toBe(200);
    const moved = await api(moveFn, `/api/admin/booked-slots/${b.id}/move`, { method: 'POST', params: { id: b.id }, body: { appointment_date: '2030-01-10', appointment_time: '09:00' } });
    expect(moved.status).toBe(200);
    expect(await stored(b.id)).toBeNull();
  });

  it('the dashboard counts no-shows per type over the last 30 and 90 days, out of the marked bookings', async () => {
    const day = (daysAgo: number) => new Date(Date.UTC(2030, 0, 9 - daysAgo)).toISOString().slice(0, 10);
    await booking(day(0), '09:00', { attendance: 'no_show' }); // today: in both
    await booking(day(29), '09:00', { attendance: 'arrived' }); // the 30th day back: in both
    await booking(day(30), '09:00', { attendance: 'no_show' }); // 31st day back: 90 only
    await booking(day(89), '09:00', { attendance: 'no_show' }); // 90th day back: 90 only
    await booking(day(90), '09:00', { attendance: 'no_show' }); // 91st: neither
    await booking(day(5), '09:00'); // not marked: neither
    await booking(day(60), '09:00', { appointmentTypeId: vaccination, attendance: 'arrived' });
    const res = await api(statsFn, '/api/admin/stats');
    expect(res.status).toBe(200);
    expect(res.json.noShows).toEqual([
      { appointment_type_id: checkUp, type_name: 'Check-up', no_show_30: 1, marked_30: 2, no_show_90: 3, marked_90: 4 },
      { appointment_type_id: vaccination, type_name: 'Impfung', no_show_30: 0, marked_30: 0, no_show_90: 0, marked_90: 1 },
    ]);
  });
});

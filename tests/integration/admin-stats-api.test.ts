import { beforeAll, describe, expect, it, vi } from 'vitest';
import { appointmentTypes, blockedDates, bookedSlots, inventoryItems, patientRequests } from '../../db/schema';
import stats, { config } from '../../netlify/functions/admin-stats';
import { createAdmin, type TestUser } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

describe.each(databaseKinds)('GET /api/admin/stats on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });

  it('is routed at /api/admin/stats', () => expect(config.path).toBe('/api/admin/stats'));

  it('answers zeros for an empty practice', async () => {
    const res = await call(stats, '/api/admin/stats', { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ bookedTotal: 0, bookedToday: 0, appointmentTypes: 0, blockedDates: 0, lowStock: 0, expiringSoon: 0, unnotified: 0, requestsNew: 0, requestsOpen: 0, needsCall: 0, practiceMailBouncedAt: null, noShows: [], sms: { sent_this_month: 0, limit: 300, configured: true } });
  });

  it('counts bookings (today in Berlin), types, blocked dates and items at or below minimum stock', async () => {
    // 23:30 UTC on 1 Dec is already 2 Dec in Berlin.
    vi.useFakeTimers({ now: new Date('2026-12-01T23:30:00Z'), toFake: ['Date'] });
    const adminThen = await createAdmin(t.db);
    const [type] = await t.db.insert(appointmentTypes).values([{ name: 'A', description: 'a' }, { name: 'B', description: 'b' }]).returning();
    const hash = (c: string) => c.repeat(64);
    await t.db.insert(bookedSlots).values([
      { appointmentTypeId: type!.id, appointmentDate: '2026-12-02', appointmentTime: '09:00', seat: 1, cancellationTokenHash: hash('a') },
      // The practice was not told of these two: only today's counts as an unknown patient still to come.
      { appointmentTypeId: type!.id, appointmentDate: '2026-12-02', appointmentTime: '09:20', seat: 1, cancellationTokenHash: hash('b'), practiceNotified: false },
      { appointmentTypeId: type!.id, appointmentDate: '2026-12-01', appointmentTime: '09:00', seat: 1, cancellationTokenHash: hash('c'), practiceNotified: false },
    ]);
    await t.db.insert(blockedDates).values([{ date: '2026-12-24' }, { date: '2026-12-31', appointmentTypeId: type!.id }]);
    await t.db.insert(inventoryItems).values([
      { name: 'gleich', supplier: 's', currentStock: 5, minimumStock: 5 },
      { name: 'darunter', supplier: 's', currentStock: 1, minimumStock: 5, isOrdered: true },
      { name: 'genug', supplier: 's', currentStock: 6, minimumStock: 5 },
      // Expiry, counted from Berlin's today (2 Dec): today and today + 30 count; yesterday and today + 31 do not.
      { name: 'läuft heute ab', supplier: 's', currentStock: 9, minimumStock: 1, expiryDate: '2026-12-02' },
      { name: 'in 30 Tagen', supplier: 's', currentStock: 9, minimumStock: 1, expiryDate: '2027-01-01' },
      { name: 'in 31 Tagen', supplier: 's', currentStock: 9, minimumStock: 1, expiryDate: '2027-01-02' },
      { name: 'abgelaufen', supplier: 's', currentStock: 9, minimumStock: 1, expiryDate: '2026-12-01' },
    ]);
    // Patient requests: one new, one in progress (both open), one done.
    await t.db.insert(patientRequests).values([
      { kind: 'prescription', tokenHash: hash('d') },
      { kind: 'referral', status: 'in_progress', tokenHash: hash('e') },
      { kind: 'callback', status: 'done', closedAt: new Date(), tokenHash: hash('f') },
    ]);
    const res = await call(stats, '/api/admin/stats', { headers: { cookie: adminThen.cookie } });
    vi.useRealTimers();
    expect(res.json).toEqual({ bookedTotal: 3, bookedToday: 2, appointmentTypes: 2, blockedDates: 2, lowStock: 2, expiringSoon: 2, unnotified: 1, requestsNew: 1, requestsOpen: 2, needsCall: 0, practiceMailBouncedAt: null, noShows: [], sms: { sent_this_month: 0, limit: 300, configured: true } });
  });
});

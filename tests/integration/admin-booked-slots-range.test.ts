/**
 * GET /api/admin/booked-slots?from=&to= (docs/decisions/020-reception.md,
 * docs/architecture.md HTTP API): the week view's and the day list's range,
 * both ends inclusive, at most 62 days; without a range every booking as
 * before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { appointmentTypes, bookedSlots } from '../../db/schema';
import collection from '../../netlify/functions/admin-booked-slots';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { databaseKinds, useTestBed } from '../setup/test-bed';

describe.each(databaseKinds)('booked slots of a date range on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const list = (query: Record<string, string>) => api(collection, '/api/admin/booked-slots', { query });

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    const [type] = await t.db.insert(appointmentTypes).values({ name: 'Check-up', description: 'c' }).returning();
    // Sunday before, the week's Monday and Sunday, the Monday after, and far away.
    await t.db.insert(bookedSlots).values(
      ['2030-01-06', '2030-01-07', '2030-01-13', '2030-01-14', '2030-03-15'].flatMap((date) => [
        { appointmentTypeId: type!.id, appointmentDate: date, appointmentTime: '10:00', seat: 1, source: 'phone' },
        { appointmentTypeId: type!.id, appointmentDate: date, appointmentTime: '08:20', seat: 1, source: 'phone' },
      ]),
    );
  });

  it('answers the bookings from … to, both days included, by date then time', async () => {
    const res = await list({ from: '2030-01-07', to: '2030-01-13' });
    expect(res.status).toBe(200);
    expect(res.json.map((s: { appointment_date: string; appointment_time: string }) => `${s.appointment_date} ${s.appointment_time}`)).toEqual([
      '2030-01-07 08:20',
      '2030-01-07 10:00',
      '2030-01-13 08:20',
      '2030-01-13 10:00',
    ]);
    expect((await list({ from: '2030-01-14', to: '2030-01-14' })).json).toHaveLength(2);
    expect((await list({})).json).toHaveLength(10);
  });

  it('takes 62 days, not 63', async () => {
    expect((await list({ from: '2030-01-14', to: '2030-03-16' })).json).toHaveLength(4);
    expect(errorsOf(await list({ from: '2030-01-14', to: '2030-03-17' }))).toEqual({ to: ['errors.rangeTooLong'] });
  });

  it.each([
    ['from without to', { from: '2030-01-07' }, { to: ['errors.dateInvalid'] }],
    ['to without from', { to: '2030-01-07' }, { from: ['errors.dateInvalid'] }],
    ['a date that does not exist', { from: '2030-02-30', to: '2030-03-01' }, { from: ['errors.dateInvalid'] }],
    ['not a date', { from: 'Montag', to: '2030-03-01' }, { from: ['errors.dateInvalid'] }],
    ['to before from', { from: '2030-01-13', to: '2030-01-07' }, { to: ['errors.rangeReversed'] }],
  ])('400 naming the field for %s', async (_, query, errors) => {
    expect(errorsOf(await list(query))).toEqual(errors);
  });
});

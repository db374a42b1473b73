/** Numbers arrive in E.164; reception reads every one as it dials it, also the number to call after a change. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminApi } from './admin-api';

const answer = (body: unknown) => vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })));

describe('adminApi phone numbers', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a cancel and a move answer the number to call as dialled at home', async () => {
    answer({ id: 'b', reference: 'R', patient_notified: false, patient_phone: '+492117654321' });
    expect((await adminApi.booked.cancel('b')).patient_phone).toBe('0211 7654321');
    answer({ booking: { id: 'b' }, patient_notified: false, patient_phone: '+31201234567' });
    expect((await adminApi.booked.move('b', { appointment_date: '2030-01-08', appointment_time: '09:00' })).patient_phone).toBe('+31 20 123 4567');
    answer({ id: 'b', reference: 'R', patient_notified: true, patient_phone: null });
    expect((await adminApi.booked.cancel('b')).patient_phone).toBeNull();
  });

  it("a block's cancelled bookings name their numbers the same way", async () => {
    answer({ blocked: [], cancelled: [{ reference: 'R', patient_notified: false, patient_phone: '+491712345678', patient: { first_name: 'A', last_name: 'B', phone: '+491712345678' } }] });
    const saved = (await adminApi.blocked.create({})) as { cancelled: Array<{ patient_phone: string; patient: { phone: string } }> };
    expect(saved.cancelled[0]).toMatchObject({ patient_phone: '0171 2345678', patient: { phone: '0171 2345678' } });
  });
});

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bookedSlots } from '../../db/schema';
import collection, { config as collectionConfig } from '../../netlify/functions/admin-booked-slots';
import item, { config as itemConfig } from '../../netlify/functions/admin-booked-slot';
import availability from '../../netlify/functions/availability';
import bookings from '../../netlify/functions/bookings';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { bookingRequest, testPatient } from '../helpers/patient';
import { addBookableType } from '../helpers/fixtures';

describe.each(databaseKinds)('admin booked slots on %s', (kind) => {
  const t = useTestBed({ database: kind, now: new Date('2030-01-07T07:00:00+01:00'), dataDir: 'admin-booked-' });
  let admin: TestUser;
  let checkUp: string;
  let vaccination: string;
  const api = asAdmin(() => admin);

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    checkUp = (await addBookableType(t.db, { name: 'Check-up', description: 'c', slotDurationMinutes: 20 }, { days: [2], end: '10:00' })).id;
    vaccination = (await addBookableType(t.db, { name: 'Impfung', description: 'i', slotDurationMinutes: 20 }, { days: [2], end: '10:00' })).id;
  });

  const book = async (type: string, time: string) => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const res = await call(bookings, '/api/bookings', {
      method: 'POST',
      body: bookingRequest(type, '2030-01-08', time),
    });
    expect(res.status).toBe(201);
    return res.json.booking.id as string;
  };
  const freeTimes = async (type: string) =>
    (await call(availability, '/api/availability', { query: { type, from: '2030-01-08', to: '2030-01-08' } })).json.days[0].times as string[];

  it('is routed as docs/architecture.md (HTTP API) says', () => {
    expect(collectionConfig.path).toBe('/api/admin/booked-slots');
    expect(itemConfig.path).toBe('/api/admin/booked-slots/:id');
  });

  it('lists by date then time with type_name and the patient (docs/decisions/025), never the token hash', async () => {
    await book(vaccination, '09:00');
    await book(checkUp, '08:40');
    await t.db.insert(bookedSlots).values({ appointmentTypeId: checkUp, appointmentDate: '2030-01-01', appointmentTime: '11:00', seat: 1, cancellationTokenHash: 'a'.repeat(64) });
    const res = await api(collection, '/api/admin/booked-slots');
    expect(res.status).toBe(200);
    expect(res.json.map((s: any) => `${s.appointment_date} ${s.appointment_time} ${s.type_name}`)).toEqual([
      '2030-01-01 11:00 Check-up',
      '2030-01-08 08:40 Check-up',
      '2030-01-08 09:00 Impfung',
    ]);
    for (const slot of res.json) {
      expect(Object.keys(slot).sort()).toEqual([
        'appointment_date',
        'appointment_time',
        'appointment_type_id',
        'attendance',
        'created_at',
        'id',
        'informed',
        // The language of the patient's emails only (docs/decisions/030), for the dialogs that send one.
        'language',
        // Whether staff must call, and how the latest email to the patient went (docs/decisions/035).
        'needs_call',
        'patient',
        // Which channel told the patient: email, sms or none (docs/decisions/043-sms-second-channel.md).
        'patient_channel',
        'patient_notice',
        'patient_notified',
        'patient_state',
        'practice_notified',
        'reference',
        'source',
        'status',
        'type_name',
      ]);
    }
    expect(res.text).not.toMatch(/[0-9a-f]{64}/);
    // The booking inserted without a contact (before bookings kept details) has none; the online ones have theirs.
    expect(res.json.map((s: any) => [s.patient_state, s.patient?.last_name ?? null])).toEqual([
      ['none', null],
      ['present', 'Mustermann'],
      ['present', 'Mustermann'],
    ]);
  });

  it('DELETE is "Absagen" without a message (200, docs/architecture.md HTTP API): the time is bookable again at once; a second DELETE is 409', async () => {
    const id = await book(checkUp, '09:20');
    expect(await freeTimes(checkUp)).not.toContain('09:20');
    const res = await api(item, `/api/admin/booked-slots/${id}`, { method: 'DELETE', params: { id } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id, reference: expect.stringMatching(/^[2-9A-HJKMNP-Z]{6}$/), patient_notified: expect.any(Boolean), patient_phone: res.json.patient_notified ? null : testPatient.phone });
    expect(await freeTimes(checkUp)).toContain('09:20');
    const again = await api(item, `/api/admin/booked-slots/${id}`, { method: 'DELETE', params: { id } });
    expect(again.status).toBe(409);
  });

  it('404 for an unknown or malformed id, and nothing is removed', async () => {
    const before = await t.db.select().from(bookedSlots);
    for (const id of ['6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11', 'nope', "1' or '1'='1"]) {
      expect((await api(item, `/api/admin/booked-slots/${encodeURIComponent(id)}`, { method: 'DELETE', params: { id } })).status).toBe(404);
    }
    expect(await t.db.select().from(bookedSlots)).toHaveLength(before.length);
  });
});

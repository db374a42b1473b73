/**
 * A type paused online (docs/decisions/020-reception.md): hidden
 * from patients everywhere (list, availability, booking, the link's move),
 * while staff still book it and an existing booking's link still cancels.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appointmentTypes } from '../../db/schema';
import availability from '../../netlify/functions/availability';
import bookings from '../../netlify/functions/bookings';
import cancel from '../../netlify/functions/bookings-cancel';
import reschedule from '../../netlify/functions/bookings-reschedule';
import publicTypes from '../../netlify/functions/appointment-types';
import staffBookings from '../../netlify/functions/admin-booked-slots';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call } from '../helpers/http';
import { bookingRequest, testCaller } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const TUESDAY = '2030-01-08';

describe.each(databaseKinds)('a type paused online on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'paused-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let admin: TestUser;
  let typeId: string;

  beforeAll(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    admin = await createAdmin(t.db);
    const type = await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge' }, { days: [2], start: '09:00', end: '12:00' });
    typeId = type.id;
  });

  afterAll(async () => {
    vi.restoreAllMocks();
  });

  const book = (time: string) => call(bookings, '/api/bookings', { method: 'POST', body: bookingRequest(typeId, TUESDAY, time) });
  const pause = (paused: boolean) => t.db.update(appointmentTypes).set({ onlineBookable: !paused }).where(eq(appointmentTypes.id, typeId));

  it('patients can neither see, query nor book it; the link of an earlier booking still cancels but cannot move it; staff still book it', async () => {
    const earlier = await book('09:00');
    expect(earlier.status).toBe(201);
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to?.includes('erika@example.org'))!;
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    await pause(true);

    expect((await call(publicTypes, '/api/appointment-types')).json).toEqual([]);
    const days = await call(availability, '/api/availability', { query: { type: typeId, from: TUESDAY, to: TUESDAY } });
    expect(days.status).toBe(404);
    const online = await book('09:20');
    expect(online.status).toBe(409);
    expect(online.json.type).toBe('slot-unavailable');

    const staff = await asAdmin(() => admin)(staffBookings, '/api/admin/booked-slots', {
      method: 'POST',
      body: { appointment_type_id: typeId, appointment_date: TUESDAY, appointment_time: '09:20', ...testCaller },
    });
    expect(staff.status).toBe(201);
    expect(staff.json).toMatchObject({ source: 'phone', appointment_time: '09:20' });

    const moved = await call(reschedule, '/api/bookings/reschedule', { method: 'POST', body: { token, appointment_date: TUESDAY, appointment_time: '10:00' } });
    expect(moved.status).toBe(409);
    expect(moved.json.type).toBe('slot-unavailable');
    const cancelled = await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token } });
    expect(cancelled.status).toBe(200);

    // Resumed online, patients book it again.
    await pause(false);
    expect((await book('10:20')).status).toBe(201);
  });
});

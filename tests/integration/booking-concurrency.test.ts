/**
 * Capacity can never be exceeded, whatever the number of parallel requests
 * (DESIGN.md). Proven on a real multi-connection Postgres: PGlite runs one
 * query at a time and would hide any race.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import bookings from '../../netlify/functions/bookings';
import { appointmentTimeSlots, appointmentTypes, bookedSlots } from '../../db/schema';
import { call } from '../helpers/http';
import { useTestDatabase, type TestDatabase } from '../helpers/test-database';
import { readOutbox } from '../helpers/eml';

const CONCURRENT = 50;

describe('concurrent bookings on a real Postgres', () => {
  let t: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-07T07:00:00+01:00'));
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'concurrency-'));
    process.env.DATA_DIR = dataDir;
    process.env.DATABASE_POOL_SIZE = '20';
    t = await useTestDatabase('postgres');
  });

  afterAll(async () => {
    vi.useRealTimers();
    await t.dispose();
    await rm(dataDir, { recursive: true, force: true });
    delete process.env.DATA_DIR;
    delete process.env.DATABASE_POOL_SIZE;
  });

  it('really runs on a pool of several connections', async () => {
    expect(t.kind).toBe('postgres');
    const { rows } = (await t.db.execute('select count(*)::int as n from pg_stat_activity where datname = current_database()')) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
  });

  it.each([1, 3])(`%i place(s): exactly that many of ${CONCURRENT} simultaneous bookings succeed, the rest get 409`, async (capacity) => {
    const [type] = await t.db
      .insert(appointmentTypes)
      .values({ name: `Kapazität ${capacity}`, description: 'Test', maxSlotsPerTime: capacity, slotDurationMinutes: 20 })
      .returning();
    await t.db.insert(appointmentTimeSlots).values({ appointmentTypeId: type!.id, dayOfWeek: 2, startTime: '08:20', endTime: '13:40' });
    vi.spyOn(console, 'info').mockImplementation(() => {});

    const body = (i: number) => ({
      appointment_type_id: type!.id,
      appointment_date: '2030-01-08',
      appointment_time: '09:00',
      first_name: 'Patient',
      last_name: `Nummer ${i}`,
      birth_date: '1980-01-01',
      phone: '+49 211 1234567',
      email: `p${i}@example.org`,
      consent: true,
      language: 'de',
    });
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => call(bookings, '/api/bookings', { method: 'POST', body: body(i) })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(capacity);
    expect(statuses.filter((s) => s === 409)).toHaveLength(CONCURRENT - capacity);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    const rows = await t.db.select().from(bookedSlots).where(eq(bookedSlots.appointmentTypeId, type!.id));
    expect(rows).toHaveLength(capacity);
    // Only the winners were emailed (patient + practice each).
    const mails = await readOutbox(path.join(dataDir, 'outbox'));
    expect(mails.filter((m) => m.text.includes(`Kapazität ${capacity}`)).length).toBe(capacity * 2);
  });
});

/**
 * Capacity can never be exceeded, whatever the number of parallel requests
 * and whatever the code path (docs/architecture.md, Availability and capacity), and the
 * abuse limits hold under parallel bursts. Proven on a real multi-connection
 * Postgres: PGlite runs one query at a time and would hide any race.
 */
import { rm } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import availability from '../../netlify/functions/availability';
import bookings from '../../netlify/functions/bookings';
import { appointmentTypes, auditLog, bookedSlots, rateLimits } from '../../db/schema';
import staffBookings from '../../netlify/functions/admin-booked-slots';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin } from '../helpers/auth';
import { legacyCreateBooking } from '../../bench/legacy-booking';
import { call, settled } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';
import { readOutbox } from '../helpers/eml';
import { addBookableType } from '../helpers/fixtures';
import { countRoundTrips } from '../helpers/round-trips';
import { testCaller } from '../helpers/patient';

const CONCURRENT = 100;
// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');

/** The same uuid in upper, lower and mixed letter case, by turns. */
function spelling(id: string, i: number): string {
  if (i % 3 === 0) return id.toUpperCase();
  if (i % 3 === 1) return id.toLowerCase();
  return [...id].map((c, j) => (j % 2 ? c.toUpperCase() : c)).join('');
}

function pgCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

function constraintOf(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
  }
  return undefined;
}

describe('concurrent bookings on a real Postgres', () => {
  const t = useTestBed({ database: 'postgres', now: NOW, dataDir: 'concurrency-', env: { DATABASE_POOL_SIZE: '20' } });
  let serial = 0;



  beforeEach(async () => {
    vi.restoreAllMocks();
    vi.spyOn(console, 'info').mockImplementation(() => {});
    await t.db.delete(rateLimits);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
  });

  async function newType(capacity: number, days = [2]) {
    return addBookableType(t.db, { name: `Kapazität ${capacity} #${++serial}`, description: 'Test', maxSlotsPerTime: capacity, slotDurationMinutes: 20 }, { days });
  }

  const body = (typeId: string, i: number, overrides: Record<string, unknown> = {}) => ({
    appointment_type_id: typeId,
    appointment_date: '2030-01-08',
    appointment_time: '09:00',
    first_name: 'Patient',
    last_name: `Nummer ${i}`,
    birth_date: '1980-01-01',
    phone: '+49 211 1234567',
    email: `p${i}@example.org`,
    consent: true,
    language: 'de',
    ...overrides,
  });
  /** Every request from its own address, so only capacity decides. */
  const book = (b: Record<string, unknown>, ip: string) => call(bookings, '/api/bookings', { method: 'POST', body: b, ip });
  const rowsOf = async (typeId: string) => t.db.select().from(bookedSlots).where(eq(bookedSlots.appointmentTypeId, typeId));

  it('really runs on a pool of several connections', async () => {
    expect(t.kind).toBe('postgres');
    const { rows } = (await t.db.execute('select count(*)::int as n from pg_stat_activity where datname = current_database()')) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
  });

  it.each([1, 3])(
    `%i place(s): exactly that many of ${CONCURRENT} simultaneous bookings with the type id in mixed letter case succeed, the rest get 409`,
    async (capacity) => {
      const type = await newType(capacity);
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) => book(body(spelling(type.id, i), i), `10.1.${Math.floor(i / 250)}.${i % 250}`)),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(capacity);
      expect(statuses.filter((s) => s === 409)).toHaveLength(CONCURRENT - capacity);
      expect(responses.filter((r) => r.status === 409).every((r) => r.json.type === 'slot-unavailable')).toBe(true);
      // Ids come back canonical, whatever the spelling sent.
      expect(responses.filter((r) => r.status === 201).map((r) => r.json.booking.appointment_type_id)).toEqual(Array(capacity).fill(type.id));
      const rows = await rowsOf(type.id);
      expect(rows).toHaveLength(capacity);
      expect(rows.map((r) => r.seat).sort()).toEqual(Array.from({ length: capacity }, (_, i) => i + 1));
      // Only the winners were emailed (patient + practice each).
      const mails = await readOutbox(t.outbox);
      expect(mails.filter((m) => m.text.includes(type.name)).length).toBe(capacity * 2);
    },
  );

  it.each([1, 3])(
    `%i place(s): ${CONCURRENT} simultaneous bookings, half by staff (phone, audited) and half online, give exactly that many`,
    async (capacity) => {
      const type = await newType(capacity);
      const admin = await createAdmin(t.db);
      const staff = asAdmin(() => admin);
      const responses = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          i % 2 === 0
            ? staff(staffBookings, '/api/admin/booked-slots', {
                method: 'POST',
                body: { appointment_type_id: spelling(type.id, i), appointment_date: '2030-01-08', appointment_time: '09:00', ...testCaller },
              })
            : book(body(spelling(type.id, i), 5000 + i), `10.2.${Math.floor(i / 250)}.${i % 250}`),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(capacity);
      expect(statuses.filter((s) => s === 409)).toHaveLength(CONCURRENT - capacity);
      expect(responses.filter((r) => r.status === 409).every((r) => r.json.type === 'slot-unavailable')).toBe(true);
      const rows = await rowsOf(type.id);
      expect(rows).toHaveLength(capacity);
      expect(rows.map((r) => r.seat).sort()).toEqual(Array.from({ length: capacity }, (_, i) => i + 1));
      expect(new Set(rows.map((r) => r.reference)).size).toBe(capacity);
      // Every staff booking that stands has its audit entry, and no refused one has.
      const phoneIds = rows.filter((r) => r.source === 'phone').map((r) => r.id).sort();
      const audited = await t.db.select({ id: auditLog.entityId }).from(auditLog).where(eq(auditLog.userId, admin.id));
      expect(audited.map((a) => a.id).sort()).toEqual(phoneIds);
    },
  );

  it.each([1, 3])(
    `%i place(s): the constraint alone holds: ${CONCURRENT} parallel bookings by the old code path with its advisory lock removed store exactly that many`,
    async (capacity) => {
      const type = await newType(capacity);
      // The transaction before per-seat rows (count, then insert count + 1) without any lock: nothing but the database guards capacity.
      const results = await Promise.allSettled(
        Array.from({ length: CONCURRENT }, (_, i) =>
          legacyCreateBooking(
            t.db,
            { appointment_type_id: spelling(type.id, i), appointment_date: '2030-01-08', appointment_time: '09:00' },
            { advisoryLock: false },
          ),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(capacity);
      // The losers were refused by the database (seat taken or beyond capacity) or saw the time full.
      for (const r of results) {
        if (r.status === 'rejected') {
          const refusedByDatabase = ['23505', '23514'].includes(pgCode(r.reason) ?? '');
          const sawFull = (r.reason as { code?: string }).code === 'slot-unavailable';
          expect(refusedByDatabase || sawFull).toBe(true);
        }
      }
      expect(await rowsOf(type.id)).toHaveLength(capacity);
    },
  );

  it('refuses a seat beyond the capacity, also on update and after the capacity was lowered', async () => {
    const type = await newType(2);
    const row = (seat: number, time = '09:00') => ({
      appointmentTypeId: type.id,
      appointmentDate: '2030-01-08',
      appointmentTime: time,
      seat,
      cancellationTokenHash: (seat.toString(16) + time.replace(':', '')).padStart(64, 'a'),
    });
    await t.db.insert(bookedSlots).values(row(1));
    await t.db.insert(bookedSlots).values(row(2));
    const refusal = async (work: Promise<unknown>) => {
      try {
        await work;
        return 'accepted';
      } catch (error) {
        return constraintOf(error);
      }
    };
    expect(await refusal(t.db.insert(bookedSlots).values(row(3)))).toBe('booked_slots_seat_within_capacity');
    expect(await refusal(t.db.insert(bookedSlots).values({ ...row(2), cancellationTokenHash: 'f'.repeat(64) }))).toBe(
      'booked_slots_type_date_time_seat_idx',
    );
    expect(await refusal(t.db.insert(bookedSlots).values(row(0, '09:20')))).toBe('booked_slots_seat_within_capacity');
    expect(await refusal(t.db.insert(bookedSlots).values(row(11, '09:20')))).toMatch(/^booked_slots_seat_(within_capacity|range)$/);
    expect(await refusal(t.db.update(bookedSlots).set({ seat: 3 }).where(and(eq(bookedSlots.appointmentTypeId, type.id), eq(bookedSlots.seat, 2))))).toBe('booked_slots_seat_within_capacity');
    await t.db.update(appointmentTypes).set({ maxSlotsPerTime: 1 }).where(eq(appointmentTypes.id, type.id));
    expect(await refusal(t.db.insert(bookedSlots).values(row(2, '09:40')))).toBe('booked_slots_seat_within_capacity');
    expect(await rowsOf(type.id)).toHaveLength(2);
  });

  it('without the seat constraint the old path without its lock would overbook (the tests above can fail)', async () => {
    const type = await newType(1);
    await t.db.execute(sql`alter table booked_slots disable trigger booked_slots_seat_within_capacity`);
    await t.db.execute(sql`drop index booked_slots_type_date_time_seat_idx`);
    try {
      // Two transactions that have both counted before either inserts: the
      // interleaving a busy server produces now and then, here every time.
      let counted = 0;
      let release!: () => void;
      const bothCounted = new Promise<void>((resolve) => (release = resolve));
      const beforeInsert = () => {
        if (++counted === 2) release();
        return bothCounted;
      };
      const results = await Promise.allSettled(
        [0, 1].map((i) =>
          legacyCreateBooking(
            t.db,
            { appointment_type_id: spelling(type.id, i), appointment_date: '2030-01-08', appointment_time: '09:00' },
            { advisoryLock: false, beforeInsert },
          ),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      expect(await rowsOf(type.id)).toHaveLength(2);
    } finally {
      await t.db.delete(bookedSlots).where(eq(bookedSlots.appointmentTypeId, type.id));
      await t.db.execute(
        sql`create unique index booked_slots_type_date_time_seat_idx on booked_slots (appointment_type_id, appointment_date, appointment_time, seat)`,
      );
      await t.db.execute(sql`alter table booked_slots enable trigger booked_slots_seat_within_capacity`);
    }
  });

  it('a burst of 30 parallel bookings from one address: exactly 10 are booked, 20 get 429 with Retry-After, nothing more is stored or sent', async () => {
    const type = await newType(1, [1, 2, 3, 4, 5]);
    const slots = ['2030-01-08', '2030-01-09'].flatMap((date) =>
      ['08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20', '11:40', '12:00', '12:20', '12:40', '13:00'].map(
        (time) => ({ appointment_date: date, appointment_time: time }),
      ),
    );
    const responses = await Promise.all(slots.map((slot, i) => book(body(spelling(type.id, i), 1000 + i, slot), '203.0.113.7')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    for (const r of responses.filter((x) => x.status === 429)) {
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
      expect(r.json.type).toBe('rate-limited');
      expect(Number(r.headers.get('retry-after'))).toBe(3600);
    }
    expect(await rowsOf(type.id)).toHaveLength(10);
    expect((await readOutbox(t.outbox)).filter((m) => m.text.includes(type.name))).toHaveLength(20);
    const [limit] = await t.db.select().from(rateLimits).where(eq(rateLimits.bucket, 'booking-client'));
    expect(limit!.hits).toHaveLength(10);
    expect(JSON.stringify(await t.db.select().from(rateLimits))).not.toContain('203.0.113.7');
  });

  it('a burst of 12 parallel bookings for one recipient from different addresses: exactly 3 confirmations, the rest 429', async () => {
    const type = await newType(10);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        book(body(type.id, 2000 + i, { email: i % 2 ? ' Victim@Example.ORG' : 'victim@example.org' }), `198.51.100.${i + 1}`),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(9);
    expect(responses.filter((r) => r.status === 429).every((r) => Number(r.headers.get('retry-after')) === 86_400)).toBe(true);
    expect(await rowsOf(type.id)).toHaveLength(3);
    const mails = await readOutbox(t.outbox);
    expect(mails.filter((m) => m.headers.to?.toLowerCase() === 'victim@example.org')).toHaveLength(3);
    expect(JSON.stringify(await t.db.select().from(rateLimits)).toLowerCase()).not.toContain('victim');
  });

  describe('database round trips (counted on the driver)', () => {
    let trips: ReturnType<typeof countRoundTrips>;
    beforeEach(() => {
      trips = countRoundTrips();
    });

    it('an uncontended booking costs 2 round trips, an availability request 1', async () => {
      const type = await newType(1);
      // Warm the pool: connecting is not counted, only queries.
      await call(availability, '/api/availability', { query: { type: type.id, from: '2030-01-08', to: '2030-01-08' } });
      trips.reset();
      const booked = await book(body(type.id, 3000), '192.0.2.1');
      expect(booked.status).toBe(201);
      expect(trips.count).toBe(2);
      // Its emails go after the answer, on their own round trips (docs/decisions/035): not the next request's.
      await settled();
      trips.reset();
      const res = await call(availability, '/api/availability', { query: { type: type.id.toUpperCase(), from: '2030-01-07', to: '2030-02-06' } });
      expect(res.status).toBe(200);
      expect(res.json.type).toBe(type.id);
      expect(trips.count).toBe(1);
    });
  });
});

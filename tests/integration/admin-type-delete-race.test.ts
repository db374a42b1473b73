/**
 * Deleting a consultation type while patients book it (a delete is refused
 * while future bookings exist). On a real multi-connection Postgres, since
 * PGlite runs one query at a time and would hide the race: a booking must
 * never succeed for a type whose delete also succeeded (the cascade would
 * silently drop that booking).
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { appointmentTypes, bookedSlots } from '../../db/schema';
import bookings from '../../netlify/functions/bookings';
import typeItem from '../../netlify/functions/admin-appointment-type';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { call } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

const ROUNDS = 12;
const BOOKINGS_PER_ROUND = 6;

describe('type delete vs concurrent bookings on a real Postgres', () => {
  // Monday 7 January 2030, 07:00 Berlin.
  const t = useTestBed({ database: 'postgres', now: new Date('2030-01-07T07:00:00+01:00'), dataDir: 'type-race-', env: { DATABASE_POOL_SIZE: '12' } });
  let admin: TestUser;
  const api = asAdmin(() => admin);

  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });


  it(`${ROUNDS} rounds of one delete racing ${BOOKINGS_PER_ROUND} bookings: never a booking for a deleted type, never a 500`, async () => {
    expect(t.kind).toBe('postgres');
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const outcomes = { deleted: 0, refused: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const type = await addBookableType(
        t.db,
        { name: `Rennen ${round}`, description: 'd', maxSlotsPerTime: 1, slotDurationMinutes: 20 },
        { days: [2], start: '08:00', end: '12:00' },
      );
      const book = (i: number) =>
        call(bookings, '/api/bookings', {
          method: 'POST',
          body: {
            appointment_type_id: type.id,
            appointment_date: '2030-01-08',
            appointment_time: `${String(8 + Math.floor(i / 3)).padStart(2, '0')}:${String((i % 3) * 20).padStart(2, '0')}`,
            first_name: 'Patient',
            last_name: `Nummer ${i}`,
            birth_date: '1980-01-01',
            phone: '+49 211 1234567',
            email: `p${round}-${i}@example.org`,
            consent: true,
            language: 'de',
          },
        });
      // The delete starts in the middle of the bookings.
      const requests = Array.from({ length: BOOKINGS_PER_ROUND }, (_, i) => book(i));
      const del = api(typeItem, `/api/admin/appointment-types/${type.id}`, { method: 'DELETE', params: { id: type.id } });
      requests.splice(BOOKINGS_PER_ROUND / 2, 0, del);
      const responses = await Promise.all(requests);
      const deleteStatus = responses[BOOKINGS_PER_ROUND / 2]!.status;
      const bookingStatuses = responses.filter((_, i) => i !== BOOKINGS_PER_ROUND / 2).map((r) => r.status);

      expect(responses.map((r) => r.status).filter((s) => s >= 500)).toEqual([]);
      expect([204, 409]).toContain(deleteStatus);
      const stored = await t.db.select().from(bookedSlots).where(eq(bookedSlots.appointmentTypeId, type.id));
      if (deleteStatus === 204) {
        outcomes.deleted++;
        expect(bookingStatuses.filter((s) => s === 201), `round ${round}`).toEqual([]);
        expect(await t.db.select().from(appointmentTypes).where(eq(appointmentTypes.id, type.id))).toEqual([]);
      } else {
        outcomes.refused++;
        expect(stored.length).toBeGreaterThan(0);
        expect(await t.db.select().from(appointmentTypes).where(eq(appointmentTypes.id, type.id))).toHaveLength(1);
      }
      // Every 201 is a row that still exists.
      expect(stored).toHaveLength(bookingStatuses.filter((s) => s === 201).length);
    }
    // Both orders happened at least once overall is likely but not guaranteed; the invariant above is what matters.
    expect(outcomes.deleted + outcomes.refused).toBe(ROUNDS);
  });
});

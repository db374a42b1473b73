/**
 * `npm run bench`: prints figures, asserts nothing.
 *
 * Booking: for a month of availability of a Mon–Fri 08:20–13:40 type, the
 * HTTP requests the real wizard makes (counted in Chromium) and the server
 * time of the availability and booking endpoints on a real Postgres under
 * concurrent load, beside the same figures for the earlier site's approach (one
 * check_slot_availability call per candidate time, a bare insert to book),
 * re-created here as endpoints and measured in the same run.
 *
 * Reminders: the job's time for 1,000 due reminders against the outbox.
 *
 * Pages: the JS and CSS every public page transfers and its Lighthouse
 * scores, beside the targets (bench/pages.ts): every patient page with an
 * island or a script of its own is held to the booking page's budget.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { closeDb, getDb } from '../src/server/database.server';
import { migrateServerDatabase } from '../db/migrate';
import { appointmentTimeSlots, appointmentTypes, blockedDates, bookedSlots } from '../db/schema';
import { candidateTimes } from '../src/lib/availability';
import { addDaysToDate, berlinToday, weekdayOf } from '../src/lib/berlin-time';
import { json, readJson, route } from '../src/server/http.server';
import { hashToken, newCancellationToken } from '../src/server/bookings/shared.server';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres';
import bookingsFunction from '../netlify/functions/bookings';
import { compilePath, startLocalServer, type FunctionRoute } from '../scripts/local-server';
import { measurePages, printPageFigures, publicPages } from './pages';
import { measureReminderJob, printReminderFigures } from './reminders';

const CONCURRENCY = 16;
const REQUESTS = 400;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const ms = (v: number) => `${v.toFixed(2)} ms`;
const stats = (values: number[]) => `${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.95))}`;

function serverTime(res: Response): number {
  const match = /dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '');
  if (!match) throw new Error('no Server-Timing header');
  return Number(match[1]);
}

/** Runs `count` tasks with at most `concurrency` in flight. */
async function load<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

/** The endpoints the earlier version of the site used. */
function legacyRoutes(): FunctionRoute[] {
  const mount = (pattern: string, handler: FunctionRoute['handler']): FunctionRoute => ({
    name: 'legacy',
    pattern,
    match: compilePath(pattern),
    handler,
  });
  return [
    // The real booking function, each load request as its own client (x-bench-client): the
    // per-address limit of 10 an hour would otherwise answer most of the load with 429.
    mount('/api/bench/bookings', (req, ctx) => bookingsFunction(req, { ...ctx, ip: req.headers.get('x-bench-client') ?? ctx.ip })),
    // check_slot_availability(p_appointment_type_id, p_appointment_date, p_appointment_time) → number
    mount(
      '/api/legacy/check-slot-availability',
      route({
        POST: async (req) => {
          const body = (await readJson(req)) as Record<string, string>;
          const db = await getDb();
          const [row] = await db
            .select({ n: sql<number>`count(*)::int` })
            .from(bookedSlots)
            .where(
              and(
                eq(bookedSlots.appointmentTypeId, body.p_appointment_type_id!),
                eq(bookedSlots.appointmentDate, body.p_appointment_date!),
                eq(bookedSlots.appointmentTime, body.p_appointment_time!),
              ),
            );
          return json(row!.n);
        },
      }),
    ),
    // The type's windows and blocked dates, loaded once when a type is chosen.
    mount(
      '/api/legacy/time-slots',
      route({
        GET: async (req) => {
          const type = new URL(req.url).searchParams.get('type')!;
          const db = await getDb();
          return json(await db.select().from(appointmentTimeSlots).where(eq(appointmentTimeSlots.appointmentTypeId, type)));
        },
      }),
    ),
    mount(
      '/api/legacy/blocked-dates',
      route({ GET: async () => json(await (await getDb()).select().from(blockedDates)) }),
    ),
    // Booking was a bare insert of the row, with no capacity check.
    mount(
      '/api/legacy/booked-slots',
      route({
        POST: async (req) => {
          const body = (await readJson(req)) as Record<string, string>;
          const db = await getDb();
          const [row] = await db
            .insert(bookedSlots)
            .values({
              appointmentTypeId: body.appointment_type_id!,
              appointmentDate: body.appointment_date!,
              appointmentTime: body.appointment_time!,
              // Today's schema needs a seat; the bare insert still checks nothing itself.
              seat: sql<number>`(select count(*) + 1 from booked_slots where appointment_type_id = ${body.appointment_type_id!}::uuid and appointment_date = ${body.appointment_date!}::date and appointment_time = ${body.appointment_time!}::time)`,
              cancellationTokenHash: hashToken(newCancellationToken()),
            })
            .returning({ id: bookedSlots.id });
          return json(row, { status: 201 });
        },
      }),
    ),
  ];
}

async function main() {
  console.log('starting a real Postgres …');
  const server = await startEmbeddedPostgres();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'praxis-bench-'));
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query('create database bench');
  await admin.end();
  const url = server.adminUrl.replace(/\/postgres$/, '/bench');
  await migrateServerDatabase(url);
  process.env.DATABASE_URL = url;
  process.env.DATA_DIR = dataDir;
  process.env.APP_ENV ??= 'development'; // local handlers: outbox, no production secrets
  process.env.DATABASE_POOL_SIZE = '20';
  const restoreInfo = console.info;
  console.info = () => {}; // the outbox logs one line per email

  const db = await getDb();
  const [type] = await db
    .insert(appointmentTypes)
    .values({ name: 'Check-up', description: 'Benchmark', maxAdvanceDays: 31, slotDurationMinutes: 20, maxSlotsPerTime: 3 })
    .returning();
  const windows = [1, 2, 3, 4, 5].map((dayOfWeek) => ({ appointmentTypeId: type!.id, dayOfWeek, startTime: '08:20', endTime: '13:40' }));
  await db.insert(appointmentTimeSlots).values(windows);

  const running = await startLocalServer({ port: 0, distDir: 'dist', functionsDir: 'netlify/functions', extraRoutes: legacyRoutes(), log: () => {} });
  const base = running.url;

  const today = berlinToday();
  const monthEnd = addDaysToDate(today, 30);
  const dates: string[] = [];
  for (let d = addDaysToDate(today, 1); d <= monthEnd; d = addDaysToDate(d, 1)) {
    if (weekdayOf(d) >= 1 && weekdayOf(d) <= 5) dates.push(d);
  }
  const perDay = candidateTimes(windows, 1, 20);

  // 1. Requests the real wizard makes, counted in Chromium.
  console.log('counting the wizard’s requests in Chromium …');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // German browser: the German booking page stays German (no detection redirect to /en/).
  const page = await browser.newPage({ timezoneId: 'Europe/Berlin', locale: 'de-DE' });
  const apiRequests: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiRequests.push(r.url());
  });
  await page.goto(`${base}/termin`);
  await page.getByRole('button', { name: 'Auswählen: Check-up' }).click();
  await page.getByRole('group', { name: 'Uhrzeit wählen' }).getByRole('button').first().waitFor();
  await page.waitForLoadState('networkidle');
  const atTypeChoice = apiRequests.filter((u) => !u.includes('appointment-types')).length;
  const clickable = page.locator('.rdp-day:not([data-disabled]) button');
  const choices = Math.min(5, await clickable.count());
  const before = apiRequests.length;
  for (let i = 0; i < choices; i++) {
    await clickable.nth(i).click();
    await page.waitForLoadState('networkidle');
  }
  const perDateChoice = (apiRequests.length - before) / Math.max(choices, 1);
  const beforeMonth = apiRequests.length;
  await page.getByRole('button', { name: /nächsten Monat|Next Month/i }).click();
  await page.waitForLoadState('networkidle');
  const perMonthChange = apiRequests.length - beforeMonth;
  await browser.close();

  // 2. Server time under concurrent load.
  console.log(`measuring server time: ${REQUESTS} requests per endpoint, ${CONCURRENCY} at a time …`);
  const rangeTimes = await load(REQUESTS, CONCURRENCY, async () => {
    const res = await fetch(`${base}/api/availability?type=${type!.id}&from=${today}&to=${monthEnd}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`availability ${res.status}`);
    return serverTime(res);
  });

  // The earlier approach: for one date choice, one call per candidate time, all in parallel.
  const legacyCall = async (date: string, time: string) => {
    const res = await fetch(`${base}/api/legacy/check-slot-availability`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ p_appointment_type_id: type!.id, p_appointment_date: date, p_appointment_time: `${time}:00` }),
    });
    await res.arrayBuffer();
    return serverTime(res);
  };
  const legacyPerRequest: number[] = [];
  const legacyPerChoice: number[] = [];
  const legacyChoiceWall: number[] = [];
  await load(Math.ceil(REQUESTS / perDay.length) * 4, CONCURRENCY / 4, async (i) => {
    const date = dates[i % dates.length]!;
    const started = performance.now();
    const times = await Promise.all(perDay.map((t) => legacyCall(date, t)));
    legacyChoiceWall.push(performance.now() - started);
    legacyPerRequest.push(...times);
    legacyPerChoice.push(times.reduce((a, b) => a + b, 0));
  });
  const rangeWall: number[] = [];
  await load(Math.ceil(REQUESTS / perDay.length) * 4, CONCURRENCY / 4, async () => {
    const started = performance.now();
    const res = await fetch(`${base}/api/availability?type=${type!.id}&from=${today}&to=${monthEnd}`);
    await res.arrayBuffer();
    rangeWall.push(performance.now() - started);
  });

  const slots = dates.flatMap((date) => perDay.map((time) => ({ date, time })));
  const patient = { first_name: 'Bench', last_name: 'Mark', birth_date: '1980-01-01', phone: '+49 211 1234567', consent: true, language: 'de' };
  const bookingStatuses: number[] = [];
  const bookingTimes = await load(REQUESTS, CONCURRENCY, async (i) => {
    const slot = slots[(i * 7) % slots.length]!;
    // One client and one recipient per request, so the abuse limits do not answer instead of the booking.
    const res = await fetch(`${base}/api/bench/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-bench-client': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      body: JSON.stringify({ appointment_type_id: type!.id, appointment_date: slot.date, appointment_time: slot.time, ...patient, email: `bench${i}@example.org` }),
    });
    await res.arrayBuffer();
    bookingStatuses.push(res.status);
    return serverTime(res);
  });
  await db.delete(bookedSlots);
  const legacyBookingTimes = await load(REQUESTS, CONCURRENCY, async (i) => {
    const slot = slots[(i * 7) % slots.length]!;
    const res = await fetch(`${base}/api/legacy/booked-slots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appointment_type_id: type!.id, appointment_date: slot.date, appointment_time: slot.time }),
    });
    await res.arrayBuffer();
    return serverTime(res);
  });

  // Reminders: the job's time for 1,000 due reminders against the outbox (bench/reminders.ts).
  console.log('measuring the reminder job: 1,000 due reminders …');
  const reminderFigures = await measureReminderJob(db, dataDir);

  // 3. Weight and Lighthouse scores of every public page, on the same server.
  const pagePaths = await publicPages('dist');
  console.log(`measuring ${pagePaths.length} public pages (weight, then one Lighthouse run each) …`);
  // The waitlist's form is what its page shows from the wizard's link (?type=); the other views are lighter.
  const waitlistForm = `?type=${type!.id}`;
  const pageFigures = await measurePages(base, pagePaths, 'dist', console.log, { '/termin/warteliste': waitlistForm, '/en/termin/warteliste': waitlistForm });

  await running.close();
  await closeDb();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
  console.info = restoreInfo;

  const legacyMonth = 2 + dates.length * perDay.length;
  const rows: Array<[string, string, string]> = [
    ['requests when a type is chosen', `${atTypeChoice} (the month's availability)`, '2 (windows, blocked dates)'],
    ['requests per date choice', perDateChoice.toFixed(1), `${perDay.length} (one per candidate time)`],
    ['requests per month shown', `${perMonthChange} (on changing month)`, `${legacyMonth} to know every free time of ${dates.length} weekdays`],
    ['server time per request, median / p95', stats(rangeTimes), stats(legacyPerRequest)],
    ['server time per date choice, median / p95', `${stats(rangeTimes)} (once per month)`, stats(legacyPerChoice)],
    ['client wait per date choice, median / p95', '0 ms (already loaded)', stats(legacyChoiceWall)],
    ['client wait for a month, median / p95', stats(rangeWall), `≈ ${dates.length} × ${ms(quantile(legacyChoiceWall, 0.5))}`],
    ['booking server time, median / p95', stats(bookingTimes), `${stats(legacyBookingTimes)} (bare insert, no capacity check)`],
  ];
  const width = [44, 38, 50];
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join(' ');
  console.log('');
  console.log(`Booking: one month (${dates.length} weekdays × ${perDay.length} times) of a Mon–Fri 08:20–13:40 type, 20-minute slots, capacity 3`);
  console.log(`Real Postgres (embedded-postgres), ${CONCURRENCY} concurrent clients, ${REQUESTS} requests per endpoint, Server-Timing of the handler`);
  console.log(line(['', 'range API (this site)', 'per-candidate RPC']));
  for (const row of rows) console.log(line(row));
  const created = bookingStatuses.filter((s) => s === 201).length;
  const conflicts = bookingStatuses.filter((s) => s === 409).length;
  console.log(`booking load: ${created} created, ${conflicts} refused as full (409), ${bookingStatuses.length - created - conflicts} other`);

  printReminderFigures(reminderFigures);

  printPageFigures(pageFigures);
}

await main();

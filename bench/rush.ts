/**
 * `npm run bench:rush` (and part of `npm run bench`): a flu-vaccination
 * morning (docs/decisions/044). Prints figures, asserts nothing.
 *
 * 600 patients within 10 minutes, 70 % of them in the first 2, on one
 * vaccination type: 5-minute slots, 4 seats, 08:00–12:00 on 5 days. Each
 * loads availability through a stand-in of Netlify's CDN, picks a free time
 * (some the same popular times on purpose), books, and on a 409 picks again
 * up to 3 more times, then joins the waitlist (bench/rush-patients.ts).
 *
 * Run twice: on the production stack (bench/rush-stack.ts: Postgres behind
 * PgBouncer in transaction mode as Neon's pooled host, the Neon driver,
 * function instances as processes taking one request at a time, the every-
 * minute job, emails through a Postmark stand-in of 150 ms a message), and
 * on the embedded default (PGlite in one process). The morning is played
 * RUSH_TIME_SCALE times faster than the clock (default 4: 10 minutes in 2.5),
 * so requests come 4 times as densely as on the day: the latencies are
 * measured, not scaled, and pessimistic. The job still runs every real
 * minute, so the emails' drain time is the day's.
 *
 * The last line: `rush: <n> booked of <seats> seats, <o> overbooked, <k> 5xx,
 * availability p95 <a> ms, booking p95 <b> ms` (the production stack; both
 * p95s at the function, not flattered by the CDN's copies).
 */
import { addDaysToDate, berlinToday } from '../src/lib/berlin-time';
import { quantile } from './round-trips';
import { arrivals, emptyLog, randomStream, runPatient, type PatientContext, type RushLog, type Timed } from './rush-patients';
import { INSTANCES, POOLER_POOL_SIZE, startRushStack, type RushMode, type RushStack } from './rush-stack';

const PATIENTS = Number(process.env.RUSH_PATIENTS ?? 600);
const TIME_SCALE = Number(process.env.RUSH_TIME_SCALE ?? 4);
const SEATS_PER_TIME = 4;
const MAX_ADVANCE_DAYS = 21;
const JOB_INTERVAL_MS = 60_000;

interface Figures {
  mode: RushMode;
  seats: number;
  days: string[];
  booked: number;
  overbooked: number;
  log: RushLog;
  cdn: { requests: number; origin: number; purges: number };
  peak: { clients: number; servers: number; postgres: number } | null;
  drainSeconds: number | null;
  perMinute: number[];
}

const p = (list: Timed[], q: number) => Math.round(quantile(list.map((t) => t.ms), q));
const triple = (list: Timed[]) => `${p(list, 0.5)} / ${p(list, 0.95)} / ${p(list, 0.99)} ms`;

async function seed(stack: RushStack): Promise<{ typeId: string; days: string[]; seats: number; today: string }> {
  const [type] = await stack.query<{ id: string }>(
    `insert into appointment_types (name, name_en, description, max_advance_days, slot_duration_minutes, max_slots_per_time)
     values ('Grippeimpfung', 'Flu vaccination', 'Impfung gegen die saisonale Grippe', ${MAX_ADVANCE_DAYS}, 5, ${SEATS_PER_TIME}) returning id`,
  );
  const typeId = type!.id;
  await stack.query(`insert into appointment_time_slots (appointment_type_id, day_of_week, start_time, end_time)
     select '${typeId}', d, '08:00', '12:00' from generate_series(1, 5) d`);
  const today = berlinToday();
  const last = addDaysToDate(today, MAX_ADVANCE_DAYS);
  const probe = await stack.origin(new URL(`http://rush/api/availability?type=${typeId}&from=${addDaysToDate(today, 1)}&to=${last}`));
  const open = (JSON.parse(probe.body) as { days: Array<{ date: string; times: string[] }> }).days.filter((d) => d.times.length > 0).slice(0, 5);
  const days = open.map((d) => d.date);
  // The vaccination days only: every other day of the window is blocked for the type.
  await stack.query(`insert into blocked_dates (date, appointment_type_id, reason)
     select d::date, '${typeId}', 'keine Impfsprechstunde' from generate_series('${today}'::date, '${last}'::date, '1 day') d
     where d::date <> all(array[${days.map((d) => `'${d}'::date`).join(', ')}])`);
  return { typeId, days, seats: open.reduce((n, d) => n + d.times.length, 0) * SEATS_PER_TIME, today };
}

async function runRush(mode: RushMode): Promise<Figures> {
  console.log(`\nrush on ${mode === 'postgres' ? 'Postgres behind PgBouncer (transaction mode), the Neon driver' : 'PGlite (the embedded default)'}: starting …`);
  const stack = await startRushStack(mode);
  try {
    const { typeId, days, seats, today } = await seed(stack);
    console.log(`  ${days.length} vaccination days (${days[0]} … ${days.at(-1)}), ${seats} seats; ${PATIENTS} patients, the morning ${TIME_SCALE}× faster`);
    let peak: Figures['peak'] = null;
    const sampler = setInterval(() => {
      void stack.connections().then((now) => {
        if (!now) return;
        peak = {
          clients: Math.max(peak?.clients ?? 0, now.clients),
          servers: Math.max(peak?.servers ?? 0, now.servers),
          postgres: Math.max(peak?.postgres ?? 0, now.postgres),
        };
      }, () => {});
    }, 200);
    const job = setInterval(() => void stack.job().catch(() => {}), JOB_INTERVAL_MS);
    const log = emptyLog();
    const started = performance.now();
    const ctx: PatientContext = { stack, typeId, days, today, maxAdvanceDays: MAX_ADVANCE_DAYS, log, random: randomStream(46), started };
    const schedule = arrivals(PATIENTS, randomStream(600));
    await Promise.all(
      schedule.map(async (second, i) => {
        const due = started + (second * 1000) / TIME_SCALE;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
        await runPatient(i, ctx);
      }),
    );
    const lastBooking = Math.max(...log.bookedAt);
    // The emails: sent after each answer, the rest by the every-minute job.
    let drainSeconds: number | null = null;
    const until = performance.now() + 5 * 60_000;
    while (performance.now() < until) {
      const [pending] = await stack.query<{ n: number }>(`select count(*)::int as n from email_outbox where status = 'pending'`);
      if (pending!.n === 0) {
        drainSeconds = Math.max(0, (performance.now() - started - lastBooking) / 1000);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    clearInterval(sampler);
    clearInterval(job);
    const [counts] = await stack.query<{ booked: number; overbooked: number }>(
      `select (select count(*)::int from booked_slots where appointment_type_id = '${typeId}') as booked,
              (select coalesce(sum(n - ${SEATS_PER_TIME}), 0)::int from (select count(*) as n from booked_slots where appointment_type_id = '${typeId}'
                group by appointment_date, appointment_time having count(*) > ${SEATS_PER_TIME}) x) as overbooked`,
    );
    const perMinute = Array.from({ length: 10 }, () => 0);
    for (const at of log.bookedAt) perMinute[Math.min(9, Math.floor((at * TIME_SCALE) / 60_000))]!++;
    return { mode, seats, days, booked: counts!.booked, overbooked: counts!.overbooked, log, cdn: { ...stack.cdn.counts }, peak, drainSeconds, perMinute };
  } finally {
    await stack.stop();
  }
}

function report(f: Figures): void {
  const { log } = f;
  const availabilityRequests = log.availabilitySeen.length;
  console.log(`\n${f.mode === 'postgres' ? 'Production stack' : 'Embedded default (PGlite)'}: ${PATIENTS} patients, ${f.seats} seats on ${f.days.length} days`);
  console.log(`  booked ${f.booked} of ${f.seats} seats, ${f.overbooked} overbooked; ${f.seats - f.booked} seats left`);
  console.log(`  bookings per minute of the morning: ${f.perMinute.join(', ')}`);
  console.log(`  availability p50 / p95 / p99 at the function: ${triple(log.availabilityOrigin)} (${log.availabilityOrigin.length} requests)`);
  console.log(`  availability p50 / p95 / p99 as patients saw it (CDN copies included): ${triple(log.availabilitySeen)}`);
  console.log(`  booking p50 / p95 / p99 at the function: ${triple(log.bookings)} (${log.bookings.length} requests)`);
  console.log(`  409s ${log.conflicts}, retries ${log.retries}, waitlist joins ${log.waitlistJoins}, nothing free on the first look ${log.foundNothing}, 5xx ${log.serverErrors}`);
  console.log(
    `  every seat booked while patients still wanted one: ${log.waitlistJoins === 0 || f.booked === f.seats ? 'yes' : `no (${log.waitlistJoins} joined the waitlist with ${f.seats - f.booked} seats free)`}`,
  );
  console.log(`  availability requests that reached the function: ${f.cdn.origin} of ${availabilityRequests} with the CDN (${f.cdn.purges} purges); without it all ${availabilityRequests}`);
  if (f.mode === 'postgres') {
    console.log(`  waiting for a free instance (${INSTANCES} instances): p95 ${Math.round(quantile(log.queuedMs, 0.95))} ms, max ${Math.round(Math.max(...log.queuedMs))} ms`);
    const peak = f.peak;
    console.log(
      peak
        ? `  connections at peak: ${peak.clients} from the instances to the pooler, ${peak.servers} from the pooler to Postgres (${peak.postgres} backends; the pooler's pool: ${POOLER_POOL_SIZE})`
        : '  connections: not sampled',
    );
  }
  console.log(`  emails: every confirmation out ${f.drainSeconds === null ? 'NOT within 5 minutes' : `${f.drainSeconds.toFixed(1)} s`} after the last booking`);
}

const figures: Figures[] = [];
for (const mode of ['pglite', 'postgres'] as const) figures.push(await runRush(mode));
for (const f of figures) report(f);
const prod = figures.find((f) => f.mode === 'postgres')!;
console.log(
  `\nrush: ${prod.booked} booked of ${prod.seats} seats, ${prod.overbooked} overbooked, ${prod.log.serverErrors} 5xx, availability p95 ${p(prod.log.availabilityOrigin, 0.95)} ms, booking p95 ${p(prod.log.bookings, 0.95)} ms`,
);
process.exit(0);

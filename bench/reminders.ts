/**
 * The reminder job's time for 1,000 due reminders (real Postgres): queued
 * in the email outbox, then sent from it to the local outbox folder
 * (docs/decisions/035); one run alone, then two runs at once on another
 * 1,000, as when a scheduled invocation overlaps the next. Part of `npm run bench`;
 * `npx tsx bench/reminders.ts` runs it alone on its own embedded Postgres.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../db/client';
import { appointmentContacts, appointmentTypes, bookedSlots } from '../db/schema';
import { addDaysToDate, berlinToday } from '../src/lib/berlin-time';
import { hashToken, newCancellationToken } from '../src/server/bookings/shared.server';
import { createOutboxSender } from '../src/server/email/outbox.server';
import { generateKey, parseKeyRing } from '../src/server/appointment-contact/keys.server';
import { queueDueReminders, type ReminderJobResult } from '../src/server/appointment-contact/reminders.server';
import { deliverQueued, type DeliveryResult } from '../src/server/email/delivery.server';
import { seal } from '../src/server/appointment-contact/seal.server';

export const REMINDER_COUNT = 1000;

type RunResult = ReminderJobResult & { delivery: DeliveryResult };

export interface ReminderFigures {
  single: { ms: number; result: RunResult; files: number; left: number };
  pair: { ms: number; results: [RunResult, RunResult]; files: number; left: number };
}

const keys = parseKeyRing(generateKey());

/** `count` future bookings, each with a reminder that is due now. */
async function dueReminders(db: Database, typeId: string, count: number, tag: string): Promise<void> {
  const today = berlinToday();
  const times = ['08:00', '08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00'];
  const slots = Array.from({ length: count }, (_, i) => ({
    appointmentTypeId: typeId,
    appointmentDate: addDaysToDate(today, 2 + (i % 20)),
    appointmentTime: times[Math.floor(i / 20) % times.length]!,
    // 200 distinct times; the second batch ('b') takes the seats after the first's (capacity 10).
    seat: Math.floor(i / 200) + 1 + (tag === 'b' ? Math.ceil(count / 200) : 0),
    cancellationTokenHash: hashToken(newCancellationToken()),
  }));
  for (let i = 0; i < slots.length; i += 500) {
    const rows = await db.insert(bookedSlots).values(slots.slice(i, i + 500)).returning({ id: bookedSlots.id });
    await db.insert(appointmentContacts).values(
      rows.map((row, j) => ({
        bookingId: row.id,
        reminder: true,
        remindAt: new Date(Date.now() - 60_000),
        ...seal(
          { email: `patient-${tag}-${i + j}@example.org`, firstName: 'Erika', lastName: 'Mustermann', language: (i + j) % 2 ? 'en' : 'de', token: newCancellationToken(), birthDate: '', phone: '' },
          row.id,
          keys,
        ),
      })),
    );
  }
}

const countFiles = async (dir: string) => (await readdir(dir).catch(() => [])).length;
const countRows = async (db: Database) =>
  Number(((await db.execute(sql`select count(*)::int as n from appointment_contacts where remind_at is not null`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);

export async function measureReminderJob(db: Database, dataDir: string, count = REMINDER_COUNT): Promise<ReminderFigures> {
  const [type] = await db
    .insert(appointmentTypes)
    .values({ name: 'Erinnerungstest', nameEn: 'Reminder test', description: 'Benchmark', maxAdvanceDays: 31, maxSlotsPerTime: 10 })
    .returning();
  // One job run: queue what is due, then send what the outbox holds (as the scheduled job does).
  const run = async (dir: string): Promise<RunResult> => {
    const queued = await queueDueReminders(db, { siteUrl: 'https://praxis.example', keys });
    const delivery = await deliverQueued(db, { sender: createOutboxSender({ from: 'Praxis <praxis@localhost>', dir }), keys });
    return { ...queued, delivery };
  };

  await dueReminders(db, type!.id, count, 'a');
  const singleDir = path.join(dataDir, 'outbox-reminders-single');
  let start = performance.now();
  const single = await run(singleDir);
  const singleMs = performance.now() - start;
  const singleFiles = await countFiles(singleDir);
  const singleLeft = await countRows(db);

  await dueReminders(db, type!.id, count, 'b');
  const pairDir = path.join(dataDir, 'outbox-reminders-pair');
  start = performance.now();
  const pair = await Promise.all([run(pairDir), run(pairDir)]);
  const pairMs = performance.now() - start;

  return {
    single: { ms: singleMs, result: single, files: singleFiles, left: singleLeft },
    pair: { ms: pairMs, results: pair, files: await countFiles(pairDir), left: await countRows(db) },
  };
}

export function printReminderFigures(f: ReminderFigures, count = REMINDER_COUNT): void {
  const r = f.single.result;
  console.log('');
  console.log(`Reminders: the job for ${count} due reminders, queued in the email outbox and sent from it to the local folder (real Postgres, claimed FOR UPDATE SKIP LOCKED)`);
  console.log(
    `one run:        ${f.single.ms.toFixed(0)} ms (${(f.single.ms / count).toFixed(2)} ms per reminder): ${r.queued} queued, ${r.delivery.sent} sent, ${r.expired} expired, ${r.failed} failed; ${f.single.files} .eml files, ${f.single.left} still due`,
  );
  const [a, b] = f.pair.results;
  console.log(
    `two runs at once: ${f.pair.ms.toFixed(0)} ms: ${a.queued} + ${b.queued} queued, ${a.delivery.sent} + ${b.delivery.sent} = ${a.delivery.sent + b.delivery.sent} sent; ${f.pair.files} .eml files (none twice), ${f.pair.left} still due`,
  );
}

// Alone: `npx tsx bench/reminders.ts`
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { startEmbeddedPostgres } = await import('../scripts/embedded-postgres');
  const { migrateServerDatabase } = await import('../db/migrate');
  const { closeDb, getDb } = await import('../src/server/database.server');
  const server = await startEmbeddedPostgres();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'praxis-bench-reminders-'));
  try {
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query('create database bench');
    await admin.end();
    const url = server.adminUrl.replace(/\/postgres$/, '/bench');
    await migrateServerDatabase(url);
    process.env.DATABASE_URL = url;
    process.env.DATA_DIR = dataDir;
    const restoreInfo = console.info;
    console.info = () => {}; // the outbox logs one line per email
    const figures = await measureReminderJob(await getDb(), dataDir);
    console.info = restoreInfo;
    printReminderFigures(figures);
  } finally {
    await closeDb();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

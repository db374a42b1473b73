/**
 * /api/health's checks (docs/decisions/045-operations.md), for uptime
 * monitors: each `ok`, `late` or `failing`, never a count, an id, an
 * address or a value. Read only: nothing here writes, not even the local
 * key file. Every database step has its own 2-second limit, so the answer
 * comes in time even when the database hangs.
 *
 * - database: the database answers (the migrations query) within 2 s.
 * - migrations: it has applied the newest migration this build knows.
 * - job: the every-minute job ran within 3 minutes and succeeded (`late`
 *   up to 5 minutes; `failing` after that, never, or when its last run
 *   failed).
 * - outbox: no message (email or SMS) waits longer than
 *   HEALTH_OUTBOX_MAX_AGE_MINUTES (`late`), or four times that (`failing`).
 * - keys: the data key opens the newest sealed row (appointment contacts,
 *   waitlist entries, patient requests, queued messages).
 * - mail: the mail service is configured (production; locally the outbox
 *   folder always is).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { appliedMigrationWhen, bundledMigration } from '../../../db/migration-version';
import { parseKeyRing, KEY_FILE_NAME, type KeyRing } from '../appointment-contact/keys.server';
import { open as openContact } from '../appointment-contact/seal.server';
import { rowsOf } from '../../../db/rows';
import { getDb } from '../database.server';
import { openQueued } from '../email/queue.server';
import { dataDir, isProductionEnv, readEnv, variables } from '../env.server';
import { openDetails } from '../requests/seal.server';
import { openEntry } from '../waitlist/seal.server';
import { JOB_FRESH_MS, JOB_MISSED_MS, readHeartbeat } from './heartbeat.server';

export type CheckState = 'ok' | 'late' | 'failing';
export const CHECK_NAMES = ['database', 'migrations', 'job', 'outbox', 'keys', 'mail'] as const;
export type HealthChecks = Record<(typeof CHECK_NAMES)[number], CheckState>;

/** How long one database step may take. */
export const DATABASE_LIMIT_MS = 2000;
/** A message waiting longer than this many minutes is `late` (and alerts), unless HEALTH_OUTBOX_MAX_AGE_MINUTES says otherwise. */
export const DEFAULT_OUTBOX_MAX_AGE_MINUTES = 15;
/** `failing` once a message waits this many times the limit. */
const OUTBOX_FAILING_FACTOR = 4;

export class CheckTimeout extends Error {
  override name = 'CheckTimeout';
}

/** `work`, or CheckTimeout after `ms` (the work itself may go on; its answer is dropped). */
export function withinLimit<T>(work: Promise<T>, ms: number = DATABASE_LIMIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout('limit')), ms);
    timer.unref?.();
  });
  // A late failure of the dropped work must not become an unhandled rejection.
  work.catch(() => {});
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** The outbox limit in milliseconds (HEALTH_OUTBOX_MAX_AGE_MINUTES, default 15). */
export function outboxMaxAgeMs(): number {
  const raw = variables().HEALTH_OUTBOX_MAX_AGE_MINUTES;
  const minutes = raw && /^\d{1,5}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : DEFAULT_OUTBOX_MAX_AGE_MINUTES;
  return minutes * 60_000;
}

/**
 * The oldest overdue message's age per channel (ms), or null when none
 * waits. A message counts from when it was queued, except one that was
 * never tried and is not yet due (deliberately held back, e.g. an SMS
 * waiting for the morning): it does not count until it is due.
 */
export async function overdueOutbox(db: Executor, now: Date): Promise<Overdue> {
  return overdueFrom(rowsOf<OverdueRow>(await db.execute(overdueOutboxQuery(now))), now);
}

export type Overdue = { email: number | null; sms: number | null };
export type OverdueRow = { channel: string; oldest: string | null };

/** overdueOutbox's read, for a statement that reads more at once (alerts.server.ts). */
export function overdueOutboxQuery(now: Date): SQL {
  return sql`
    select channel, min(created_at)::text as oldest from email_outbox
    where status = 'pending' and not (attempts = 0 and next_attempt_at > ${now.toISOString()}::timestamptz)
    group by channel`;
}

/** The ages overdueOutbox answers, from its read's rows. */
export function overdueFrom(rows: OverdueRow[], now: Date): Overdue {
  const age = (channel: string) => {
    const oldest = rows.find((r) => r.channel === channel)?.oldest;
    return oldest ? Math.max(0, now.getTime() - new Date(oldest).getTime()) : null;
  };
  return { email: age('email'), sms: age('sms') };
}

export function outboxState(overdue: { email: number | null; sms: number | null }, maxAgeMs: number): CheckState {
  const oldest = Math.max(overdue.email ?? 0, overdue.sms ?? 0);
  if (oldest > maxAgeMs * OUTBOX_FAILING_FACTOR) return 'failing';
  if (oldest > maxAgeMs) return 'late';
  return 'ok';
}

/**
 * The key ring as configured, read without writing anything (the local key
 * file is only read, never created); null when none is configured or it
 * does not parse.
 */
export function configuredKeyRing(): KeyRing | null {
  const configured = variables().DATA_ENCRYPTION_KEY;
  try {
    if (configured && configured.trim() !== '') return parseKeyRing(configured);
    if (isProductionEnv()) return null;
    const file = path.join(dataDir(), KEY_FILE_NAME);
    return existsSync(file) ? parseKeyRing(readFileSync(file, 'utf8')) : null;
  } catch {
    return null;
  }
}

export interface SealedRow {
  source: 'contact' | 'waitlist' | 'request' | 'email';
  id: string;
  key_id: string;
  sealed: string;
}

/** The newest sealed row of the tables that hold patients' values (none when none holds any), for keysWork. */
export const newestSealedQuery: SQL = sql`
  select source, id, key_id, sealed from (
    (select 'contact' as source, booking_id::text as id, key_id, sealed, created_at from appointment_contacts order by created_at desc limit 1)
    union all
    (select 'waitlist', id::text, key_id, sealed, created_at from waitlist_entries order by created_at desc limit 1)
    union all
    (select 'request', id::text, key_id, sealed, created_at from patient_requests where sealed is not null order by created_at desc limit 1)
    union all
    (select 'email', id::text, key_id, sealed, created_at from email_outbox where sealed is not null order by created_at desc limit 1)
  ) newest order by created_at desc limit 1`;

function opens(row: SealedRow, keys: KeyRing): boolean {
  const value = { keyId: row.key_id, sealed: row.sealed };
  try {
    if (row.source === 'contact') openContact(value, row.id, keys);
    else if (row.source === 'waitlist') openEntry(value, row.id, keys);
    else if (row.source === 'request') openDetails(value, row.id, keys);
    else openQueued({ id: row.id, ...value }, keys);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the data key does its work: it opens the newest sealed row. With
 * nothing sealed yet, a key must still be configured in production (the
 * first booking would be refused without one).
 */
export async function keysWork(db: Executor): Promise<boolean> {
  return keysOpen(rowsOf<SealedRow>(await db.execute(newestSealedQuery))[0] ?? null);
}

/** keysWork's answer for the newest sealed row (null: none). */
export function keysOpen(row: SealedRow | null): boolean {
  const keys = configuredKeyRing();
  if (!keys) return !row && !isProductionEnv();
  return !row || opens(row, keys);
}

/** Whether email can go out: in production the mail service's settings are there and valid. */
export function mailConfigured(): boolean {
  try {
    const env = readEnv();
    return !env.isProduction || !!env.POSTMARK_SERVER_TOKEN;
  } catch {
    return false;
  }
}

function jobState(beat: Awaited<ReturnType<typeof readHeartbeat>>, now: Date): CheckState {
  if (!beat || beat.outcome === 'failed') return 'failing';
  const age = now.getTime() - beat.ranAt.getTime();
  if (age <= JOB_FRESH_MS) return 'ok';
  return age <= JOB_MISSED_MS ? 'late' : 'failing';
}

async function settle<T>(work: () => Promise<T>): Promise<T | CheckTimeout | Error> {
  try {
    return await withinLimit(work());
  } catch (error) {
    return error instanceof Error ? error : new Error('unknown');
  }
}

export interface HealthOptions {
  now?: Date;
  /** The database (default: the process's, opened within the limit too). */
  db?: () => Promise<Database>;
}

/** Every check, in parallel, each within its limit. */
export async function healthChecks(options: HealthOptions = {}): Promise<HealthChecks> {
  const now = options.now ?? new Date();
  const database = settle(() => (options.db ?? getDb)());
  const db = await database;
  const mail: CheckState = mailConfigured() ? 'ok' : 'failing';
  if (db instanceof Error) {
    return { database: 'failing', migrations: 'failing', job: 'failing', outbox: 'failing', keys: 'failing', mail };
  }
  // One read after another: in parallel each would take a connection of its own, and at a cold start
  // opening four (a handshake each) costs far more than the three round trips saved.
  const applied = await settle(() => appliedMigrationWhen(db));
  const beat = await settle(() => readHeartbeat(db));
  const overdue = await settle(() => overdueOutbox(db, now));
  const keys = await settle(() => keysWork(db));
  const answered = !(applied instanceof Error);
  return {
    database: answered ? 'ok' : 'failing',
    migrations: answered && applied !== null && applied >= bundledMigration.when ? 'ok' : 'failing',
    job: beat instanceof Error ? 'failing' : jobState(beat, now),
    outbox: overdue instanceof Error ? 'failing' : outboxState(overdue, outboxMaxAgeMs()),
    keys: keys === true ? 'ok' : 'failing',
    mail,
  };
}

/** `ok` only when every check is. */
export function overallStatus(checks: HealthChecks): 'ok' | 'degraded' {
  return Object.values(checks).every((state) => state === 'ok') ? 'ok' : 'degraded';
}

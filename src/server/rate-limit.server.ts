/**
 * Generic abuse limits kept in the database (serverless instances share no
 * memory): at most `max` hits per key within a sliding window of
 * `windowSeconds`.
 *
 * Storage: one `rate_limits` row per (bucket, key) whose `hits` array holds
 * the times of the hits still inside the window. The key is an HMAC-SHA-256
 * with a server secret of the limited value (a client address, an email
 * address), never the value: a plain hash of an IPv4 address or of a
 * guessable email is reversed by trying them all.
 *
 * Counting is one upsert (`INSERT … ON CONFLICT DO UPDATE … RETURNING`):
 * the conflicting row is locked and the update sees its latest committed
 * version, so parallel hits of one key queue on that row and the count
 * holds under bursts without a lock convention or a transaction. A hit
 * beyond the limit calls `rate_limit_exceeded()`, which aborts the whole
 * statement, so nothing it wrote stays (not the hit, not the booking).
 * The upsert is a CTE (`hitCte`) so callers fold it into their own single
 * statement; `takeRateLimit` runs it alone.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { postgresError } from '../../db/errors';
import { AppError } from '../lib/errors';
import { variables, type Env } from './env.server';
import { canonicalClientAddress } from './client-address.server';
import { keyedHash, serverHashKey } from './server-key.server';

export interface RateLimit {
  /** Stored in `rate_limits.bucket`; also separates the HMAC keys of different limits. */
  bucket: string;
  max: number;
  windowSeconds: number;
}

/** docs/architecture.md, Security: 10 bookings per client address per hour. */
export const BOOKINGS_PER_CLIENT: RateLimit = { bucket: 'booking-client', max: 10, windowSeconds: 60 * 60 };
/** 3 confirmation emails per recipient per day (a sliding 24 hours). */
export const CONFIRMATIONS_PER_RECIPIENT: RateLimit = { bucket: 'confirmation-recipient', max: 3, windowSeconds: 24 * 60 * 60 };

/**
 * Moves through a cancellation link (docs/decisions/016-move-limits.md): a booking moved back and forth sent the practice a notice each
 * time. Each attempt counts before the move, so parallel moves cannot slip
 * past and a refused move sends no notice; a move the booking rules refuse
 * (409) gives its booking's hit back, so a time taken meanwhile costs the
 * patient nothing. The client's hit stays: it limits load and probing.
 */
export const MOVES_PER_BOOKING: RateLimit = { bucket: 'move-booking', max: 5, windowSeconds: 24 * 60 * 60 };
export const MOVES_PER_CLIENT: RateLimit = { bucket: 'move-client', max: 20, windowSeconds: 60 * 60 };

/**
 * Invitation resends (docs/decisions/028-hidden-characters-addresses-invitations-origin.md): each one
 * emails a new link, so a stolen or careless admin session could flood a
 * colleague's inbox, or send hundreds of emails from the practice's
 * address. Per invited account and per staff member sending, 5 an hour
 * each; keyed on the user ids.
 */
export const INVITES_PER_ACCOUNT: RateLimit = { bucket: 'invite-account', max: 5, windowSeconds: 60 * 60 };
export const INVITES_PER_SENDER: RateLimit = { bucket: 'invite-sender', max: 5, windowSeconds: 60 * 60 };

/** How many expired rows one statement removes at most (keeps every statement cheap). */
const PURGE_BATCH = 20;

/** An email address as one recipient: trimmed and lower-cased. */
export function canonicalEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function rateLimitKey(limit: RateLimit, value: string, secret: string): string {
  return keyedHash(`rate-limit:${limit.bucket}`, value, secret);
}

export interface RateLimitHit {
  limit: RateLimit;
  /** From rateLimitKey: never the plain value. */
  key: string;
}

/** One hit of a per-client limit, keyed on the canonical client address (client-address.server.ts). */
export function clientHit(limit: RateLimit, ip: string, secret: string = serverHashKey()): RateLimitHit {
  return { limit, key: rateLimitKey(limit, canonicalClientAddress(ip), secret) };
}

/**
 * A CTE body that counts one hit and returns `hits` (the count including
 * this one) and `retry_after` (seconds until the oldest hit in the window
 * leaves it). `source` decides whether it runs at all: the CTE inserts one
 * row per row of `source` (use a CTE holding one row, or `(select 1)`).
 */
export function hitCte(hit: RateLimitHit, now: Date, source: SQL): SQL {
  const { bucket, windowSeconds } = hit.limit;
  const at = now.toISOString();
  return sql`
    insert into rate_limits as r (bucket, key_hash, hits, expires_at)
    select ${bucket}, ${hit.key}, array[${at}::timestamptz], ${at}::timestamptz + make_interval(secs => ${windowSeconds})
    from ${source}
    on conflict (bucket, key_hash) do update set
      hits = array(
        select h from unnest(r.hits) as h
        where h > ${at}::timestamptz - make_interval(secs => ${windowSeconds})
        order by h
      ) || ${at}::timestamptz,
      expires_at = ${at}::timestamptz + make_interval(secs => ${windowSeconds})
    returning
      cardinality(r.hits) as hits,
      greatest(1, ceil(extract(epoch from (r.hits[1] + make_interval(secs => ${windowSeconds}) - ${at}::timestamptz))))::int as retry_after`;
}

/**
 * An expression that aborts the statement when `cte` (a hitCte) counted
 * more than the limit; true otherwise.
 */
export function withinLimitCheck(hit: RateLimitHit, cte: SQL): SQL {
  return sql`(select case when c.hits > ${hit.limit.max} then rate_limit_exceeded(${hit.limit.bucket}, c.retry_after) else true end from ${cte} c)`;
}

/** Removes a few rows whose window has passed (never the keys this statement counts). */
export function purgeCte(now: Date, keep: RateLimitHit[]): SQL {
  const keys = keep.map((h) => h.key);
  return sql`
    delete from rate_limits p
    using (
      select bucket, key_hash from rate_limits
      where expires_at < ${now.toISOString()}::timestamptz
        and key_hash <> all(array[${sql.join(keys.map((k) => sql`${k}`), sql`, `)}]::text[])
      limit ${PURGE_BATCH}
      for update skip locked
    ) old
    where p.bucket = old.bucket and p.key_hash = old.key_hash`;
}

/** A statement aborted by rate_limit_exceeded() as the 429 it means; anything else unchanged. */
export function asRateLimited(error: unknown, message: (bucket: string) => string): unknown {
  const e = postgresError(error);
  if (e?.code !== 'RL429') return error;
  const bucket = e.detail ?? '';
  const seconds = Number(e.hint);
  return new AppError('rate-limited', message(bucket), undefined, {
    retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 60,
  });
}

/**
 * Counts one hit of every limit in one statement, or throws 429 (and keeps
 * none of them) when any is exceeded. For callers without a statement of
 * their own to fold the hits into. `also`, a scalar subquery, rides along
 * in the same statement (one round trip); its value is returned only when
 * every limit holds.
 */
export async function takeRateLimit(
  db: Database,
  hits: RateLimitHit[],
  now: Date = new Date(),
  message: string | ((bucket: string) => string) = 'Too many requests. Please try again later.',
  also: SQL = sql`null`,
): Promise<unknown> {
  const ctes = hits.map((hit, i) => sql`${sql.raw(`h${i}`)} as (${hitCte(hit, now, sql`(select 1) one`)})`);
  const checks = hits.map((hit, i) => sql`${withinLimitCheck(hit, sql.raw(`h${i}`))}`);
  try {
    const result = await db.execute(
      sql`with ${sql.join(ctes, sql`, `)}, purge as (${purgeCte(now, hits)}) select ${sql.join(checks, sql`, `)}, (${also}) as also`,
    );
    return (result as unknown as { rows: Array<{ also: unknown }> }).rows[0]?.also ?? null;
  } catch (error) {
    throw asRateLimited(error, typeof message === 'string' ? () => message : message);
  }
}

/**
 * Counts one hit and answers how many the window now holds, without a
 * limit: for counts that trigger something other than a refusal (the owner
 * alerted after wrong codes, docs/decisions/037-passkeys-sessions-guessing.md).
 */
export async function countHit(db: Database, hit: RateLimitHit, now: Date = new Date()): Promise<number> {
  const result = await db.execute(sql`with h as (${hitCte(hit, now, sql`(select 1) one`)}), purge as (${purgeCte(now, [hit])}) select hits from h`);
  return Number((result as unknown as { rows: Array<{ hits: unknown }> }).rows[0]?.hits ?? 0);
}

/** Forgets every hit of a key (the thing it counted was settled: a password reset after wrong codes). */
export async function clearHits(db: Database, hit: RateLimitHit): Promise<void> {
  await db.execute(sql`delete from rate_limits where bucket = ${hit.limit.bucket} and key_hash = ${hit.key}`);
}

/**
 * Takes back one hit counted at `now` (the request it counted for changed
 * nothing that the limit guards). One element goes, even when parallel
 * hits share the timestamp.
 */
export async function forgetHit(db: Database, hit: RateLimitHit, now: Date): Promise<void> {
  await db.execute(sql`
    update rate_limits set hits = array(
      select h from unnest(hits) with ordinality as u(h, i)
      where i <> (select min(i) from unnest(hits) with ordinality as v(h, i) where h = ${now.toISOString()}::timestamptz)
      order by i)
    where bucket = ${hit.limit.bucket} and key_hash = ${hit.key}`);
}

/** The limits of an online booking: per client address, and per recipient of its confirmation email. */
export function bookingLimits(
  who: { clientAddress: string; recipient: string },
  env: Pick<Env, 'JWT_SECRET' | 'ADMIN_SETUP_SECRET'> & { isProduction?: boolean },
): RateLimitHit[] {
  const secret = serverHashKey(env);
  const perClient = bookingsPerClient(env);
  return [
    clientHit(perClient, who.clientAddress, secret),
    { limit: CONFIRMATIONS_PER_RECIPIENT, key: rateLimitKey(CONFIRMATIONS_PER_RECIPIENT, canonicalEmail(who.recipient), secret) },
  ];
}

/**
 * The limits of a move: per booking, keyed on an HMAC of the link token's
 * SHA-256 (never the token), and per client.
 */
export function moveLimits(
  who: { token: string; clientAddress: string },
  env: Pick<Env, 'JWT_SECRET' | 'ADMIN_SETUP_SECRET'>,
): { booking: RateLimitHit; client: RateLimitHit } {
  const secret = serverHashKey(env);
  const tokenHash = createHash('sha256').update(who.token, 'utf8').digest('hex');
  return {
    booking: { limit: MOVES_PER_BOOKING, key: rateLimitKey(MOVES_PER_BOOKING, tokenHash, secret) },
    client: clientHit(MOVES_PER_CLIENT, who.clientAddress, secret),
  };
}

/** The limits of an invitation resend: per invited account and per staff member sending it. */
export function invitationLimits(
  who: { accountId: string; senderId: string },
  secret: string = serverHashKey(),
): RateLimitHit[] {
  return [
    { limit: INVITES_PER_ACCOUNT, key: rateLimitKey(INVITES_PER_ACCOUNT, who.accountId, secret) },
    { limit: INVITES_PER_SENDER, key: rateLimitKey(INVITES_PER_SENDER, who.senderId, secret) },
  ];
}

/**
 * The per-address limit. Outside production BOOKINGS_PER_CLIENT_MAX may
 * raise it: the browser tests book dozens of times an hour, all from
 * 127.0.0.1. Production ignores the variable (functions are production
 * unless APP_ENV=development), so the limit there is always the one above.
 */
function bookingsPerClient(env: { isProduction?: boolean }): RateLimit {
  const raised = Number(variables().BOOKINGS_PER_CLIENT_MAX);
  if (env.isProduction === false && Number.isInteger(raised) && raised > 0) return { ...BOOKINGS_PER_CLIENT, max: raised };
  return BOOKINGS_PER_CLIENT;
}

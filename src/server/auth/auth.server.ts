/**
 * Sign-in, first-admin setup and the admin guard: the domain of
 * /api/auth/* and of every /api/admin/* endpoint.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { getDb } from '../database.server';
import { loginAttempts, userRoles, users } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { AdminSetupInput, LoginInput } from '../../lib/auth-schemas';
import { notConfigured, readEnv } from '../env.server';
import { clientKey } from '../client-address.server';
import { keyedHash } from '../server-key.server';
import { ACCESS_COOKIE, readCookies } from './cookies.server';
import { assertSameOrigin } from './origin.server';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.server';
import { ENROLMENT_REQUIRED, hasSecondFactor, pendingSignInToken } from './second-factor-pending.server';
import { createSession, sessionFromAccessToken, type IssuedSession, type SessionInfo } from './sessions.server';

/** The password step's outcome: a session, or (the account has a second factor) a pending sign-in waiting for the code. */
export type PasswordStep = { session: IssuedSession } | { pendingToken: string };

/**
 * Sign-in limits (docs/architecture.md, Security): failures
 * count per (account, client) and per client. No limit counts an account
 * alone, so nobody elsewhere can lock its owner out; the client limit is
 * high enough for one practice connection that all staff share, so a
 * colleague's typos (or a stranger's guesses at an unknown address from the
 * same connection) never lock out the others.
 */
export const LOGIN_LIMITS = { perAccountAndClient: 5, perClient: 25 } as const;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Setup words: 5 wrong ones per client per window. */
export const SETUP_MAX_FAILURES = 5;
export const INVALID_CREDENTIALS = 'E-Mail-Adresse oder Passwort ist falsch.';
export const NO_SESSION = 'Keine gültige Sitzung. Bitte melden Sie sich an.';
/** Outside production an unset ADMIN_SETUP_SECRET means this word (docs/architecture.md, Security). */
export const DEFAULT_SETUP_SECRET = 'praxis-setup';
const SETUP_LOCK = 727_005;

/** What login_attempts keeps of a client: an HMAC of its canonical address with the server key, never the address. */
export function loginClientKey(ip: string, purpose: 'login' | 'setup' = 'login'): string {
  return clientKey(`${purpose}-client`, ip);
}

/** What login_attempts keeps of a typed email: an HMAC with the server key, never the email. */
export function emailKey(email: string): string {
  return keyedHash('login-email', email);
}

/** The email column of a setup attempt: a marker no HMAC can equal. */
export const SETUP_ATTEMPT_MARKER = 'setup';

/** 429 whose Retry-After is when the oldest counted failure leaves the window, i.e. when the next attempt is counted again. */
function rateLimited(detail: string, oldest: string | null | undefined, now: Date): AppError {
  const from = oldest ? new Date(oldest).getTime() : now.getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((from + LOGIN_WINDOW_MS - now.getTime()) / 1000));
  return new AppError('rate-limited', detail, undefined, { retryAfterSeconds });
}

/** Rows past the window serve no purpose: each attempt removes them. */
async function purgeOldAttempts(db: Database, now: Date): Promise<void> {
  await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, new Date(now.getTime() - LOGIN_WINDOW_MS)));
}

/** The secret word that allows setup, or null when setup is disabled (production without one). */
export function setupSecret(): string | null {
  const env = readEnv();
  if (env.ADMIN_SETUP_SECRET) return env.ADMIN_SETUP_SECRET;
  return env.isProduction ? null : DEFAULT_SETUP_SECRET;
}

/** The hint the setup page may show: the default word, only outside production. */
export function setupHint(): string | null {
  const env = readEnv();
  return env.isProduction || env.ADMIN_SETUP_SECRET ? null : DEFAULT_SETUP_SECRET;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export async function adminExists(db: Database): Promise<boolean> {
  const rows = await db.select({ id: userRoles.id }).from(userRoles).where(eq(userRoles.role, 'admin')).limit(1);
  return rows.length > 0;
}

/**
 * Creates the first admin. Decided inside one transaction under an advisory
 * lock, so any number of concurrent setups create exactly one admin.
 */
export async function setupFirstAdmin(
  db: Database,
  input: AdminSetupInput,
  ip = 'unknown',
  now: Date = new Date(),
): Promise<{ id: string; email: string }> {
  const expected = setupSecret();
  // Fails closed: production without ADMIN_SETUP_SECRET has no setup at all.
  if (expected === null) throw notConfigured(['ADMIN_SETUP_SECRET']);
  // Once an admin exists every attempt gets this same 409, whatever the
  // word: the answer must not tell a right guess from a wrong one.
  if (await adminExists(db)) throw new AppError('admin-exists', 'Es existiert bereits ein Admin-Benutzer.');
  // Wrong words are limited like logins: 5 per address per 15 minutes. A
  // wrong word is recorded before it is counted, so a parallel burst gets at
  // most 5 answers of 403; a right word only counts the failures, and once
  // the limit is reached it gets the same 429 as a wrong one.
  const key = loginClientKey(ip, 'setup');
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  await purgeOldAttempts(db, now);
  const right = sameSecret(input.adminSecret, expected);
  const [attempt] = right
    ? []
    : await db.insert(loginAttempts).values({ email: SETUP_ATTEMPT_MARKER, clientKey: key, attemptedAt: now }).returning({ id: loginAttempts.id });
  const [counts] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number), oldest: sql<string | null>`min(${loginAttempts.attemptedAt})` })
    .from(loginAttempts)
    .where(and(gte(loginAttempts.attemptedAt, since), eq(loginAttempts.clientKey, key)));
  if ((counts?.n ?? 0) > (right ? SETUP_MAX_FAILURES - 1 : SETUP_MAX_FAILURES)) {
    // A refused attempt is not recorded: hammering does not extend the window.
    if (attempt) await db.delete(loginAttempts).where(eq(loginAttempts.id, attempt.id));
    throw rateLimited('Zu viele fehlgeschlagene Versuche. Bitte versuchen Sie es später erneut.', counts?.oldest, now);
  }
  if (!right) throw new AppError('forbidden', 'Das Admin-Geheimwort ist falsch.');
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK})`);
    if (await adminExists(tx)) {
      throw new AppError('admin-exists', 'Es existiert bereits ein Admin-Benutzer.');
    }
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing) throw new AppError('conflict', 'Diese E-Mail-Adresse ist bereits vergeben.');
    const [user] = await tx.insert(users).values({ email: input.email, passwordHash }).returning({ id: users.id, email: users.email });
    await tx.insert(userRoles).values({ userId: user!.id, role: 'admin' });
    return user!;
  });
}

/**
 * Checks the password and opens a session. Failures are counted in the
 * database (serverless instances share no memory): 5 for one account from
 * one client, or 25 from one client for any accounts, within 15 minutes,
 * then 429 until the oldest of them leaves the window.
 *
 * Each attempt is written before it is counted, so concurrent attempts cannot
 * all slip under the limit: the k-th attempt to commit sees at least k rows.
 * A refused (429) attempt removes its row again, so hammering does not
 * extend the window; a success removes its own row and this client's
 * earlier failures for this account (not another client's: a stranger's
 * guesses elsewhere keep counting against the stranger).
 */
export async function login(
  db: Database,
  input: LoginInput,
  ip: string,
  now: Date = new Date(),
  userAgent: string | null = null,
): Promise<PasswordStep> {
  const key = loginClientKey(ip);
  const mail = emailKey(input.email);
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  await purgeOldAttempts(db, now);
  const [attempt] = await db
    .insert(loginAttempts)
    .values({ email: mail, clientKey: key, attemptedAt: now })
    .returning({ id: loginAttempts.id });
  const pair = sql`${loginAttempts.email} = ${mail}`;
  const [counts] = await db
    .select({
      byPair: sql<number>`count(*) filter (where ${pair})`.mapWith(Number),
      byClient: sql<number>`count(*)`.mapWith(Number),
      oldestOfPair: sql<string | null>`min(${loginAttempts.attemptedAt}) filter (where ${pair})`,
      oldestOfClient: sql<string | null>`min(${loginAttempts.attemptedAt})`,
    })
    .from(loginAttempts)
    .where(and(gte(loginAttempts.attemptedAt, since), eq(loginAttempts.clientKey, key)));
  const pairFull = (counts?.byPair ?? 0) > LOGIN_LIMITS.perAccountAndClient;
  const clientFull = (counts?.byClient ?? 0) > LOGIN_LIMITS.perClient;
  if (pairFull || clientFull) {
    await db.delete(loginAttempts).where(eq(loginAttempts.id, attempt!.id));
    throw rateLimited(
      'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es später erneut.',
      clientFull ? counts?.oldestOfClient : counts?.oldestOfPair,
      now,
    );
  }

  const [user] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, input.email));
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !valid) throw new AppError('unauthenticated', INVALID_CREDENTIALS);
  // A successful sign-in forgives this client's earlier typos for this account.
  await db.delete(loginAttempts).where(and(eq(loginAttempts.email, mail), eq(loginAttempts.clientKey, key)));
  // With a second factor the password opens no session: only the code step does (second-factor.server.ts).
  if (await hasSecondFactor(db, user.id)) return { pendingToken: await pendingSignInToken(db, user.id, now) };
  return { session: await createSession(db, { id: user.id, email: user.email }, now, { userAgent }) };
}

/**
 * The signed-in user of a request, or 401. A session whose account must
 * still set up its required second factor is refused (403
 * `second-factor-enrolment-required`) unless the caller is part of that
 * enrolment (`enrolment: true`: the session check, the factor's own
 * routes).
 */
export async function requireSession(
  req: Request,
  db?: Database,
  options: { enrolment?: boolean } = {},
): Promise<SessionInfo & { sessionId: string }> {
  const token = readCookies(req)[ACCESS_COOKIE];
  // No session cookie: 401 before the database (and its driver) is opened.
  if (!token) throw new AppError('unauthenticated', NO_SESSION);
  const session = await sessionFromAccessToken(db ?? (await getDb()), token);
  if (!session) throw new AppError('unauthenticated', NO_SESSION);
  return options.enrolment ? session : enrolled(session);
}

/** The session, unless its account must still set up its required second factor (403 `second-factor-enrolment-required`). */
export function enrolled<S extends SessionInfo>(session: S): S {
  if (session.secondFactor === 'enrolment-required') throw new AppError('second-factor-enrolment-required', ENROLMENT_REQUIRED);
  return session;
}

/**
 * The guard of every /api/admin/* endpoint: a cross-site state-changing
 * request 403, no valid session 401, a signed-in non-admin 403.
 */
export async function requireAdmin(req: Request, db?: Database): Promise<SessionInfo & { sessionId: string }> {
  assertSameOrigin(req);
  const session = await requireSession(req, db);
  if (!session.isAdmin) throw new AppError('forbidden', 'Dafür sind Admin-Rechte nötig.');
  return session;
}

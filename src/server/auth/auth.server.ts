/**
 * Sign-in, first-admin setup and the admin guard: the domain of
 * /api/auth/* and of every /api/admin/* endpoint.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, gte, or, sql } from 'drizzle-orm';
import { getDb, type Database } from '../../../db/client';
import { loginAttempts, userRoles, users } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { AdminSetupInput, LoginInput } from '../../lib/auth-schemas';
import { notConfigured, readEnv } from '../env.server';
import { ACCESS_COOKIE, readCookies } from './cookies.server';
import { assertSameOrigin } from './origin.server';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.server';
import { createSession, sessionFromAccessToken, type IssuedSession, type SessionInfo } from './sessions.server';

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_CREDENTIALS = 'Invalid login credentials';
/** Outside production an unset ADMIN_SETUP_SECRET means this word (DESIGN.md). */
export const DEFAULT_SETUP_SECRET = 'praxis-setup';
const SETUP_LOCK = 727_005;

export function clientKey(ip: string): string {
  return createHash('sha256').update(ip).digest('hex');
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
export async function setupFirstAdmin(db: Database, input: AdminSetupInput): Promise<{ id: string; email: string }> {
  const expected = setupSecret();
  // Fails closed: production without ADMIN_SETUP_SECRET has no setup at all.
  if (expected === null) throw notConfigured(['ADMIN_SETUP_SECRET']);
  if (!sameSecret(input.adminSecret, expected)) throw new AppError('forbidden', 'Das Admin-Geheimwort ist falsch.');
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK})`);
    if (await adminExists(tx as unknown as Database)) {
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
 * database (serverless instances share no memory): after 5 failures for the
 * email or the client address within 15 minutes, 429 until the window passes.
 *
 * Each attempt is written before it is counted, so concurrent attempts cannot
 * all slip under the limit: the k-th attempt to commit sees at least k rows.
 * A refused (429) attempt removes its row again, so hammering does not
 * extend the window; a success removes its own row and the email's earlier
 * failures.
 */
export async function login(db: Database, input: LoginInput, ip: string, now: Date = new Date()): Promise<IssuedSession> {
  const key = clientKey(ip);
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const [attempt] = await db
    .insert(loginAttempts)
    .values({ email: input.email, clientKey: key, attemptedAt: now })
    .returning({ id: loginAttempts.id });
  const forget = () => db.delete(loginAttempts).where(eq(loginAttempts.id, attempt!.id));

  const [counts] = await db
    .select({
      byEmail: sql<number>`count(*) filter (where ${loginAttempts.email} = ${input.email})`.mapWith(Number),
      byClient: sql<number>`count(*) filter (where ${loginAttempts.clientKey} = ${key})`.mapWith(Number),
    })
    .from(loginAttempts)
    .where(and(gte(loginAttempts.attemptedAt, since), or(eq(loginAttempts.email, input.email), eq(loginAttempts.clientKey, key))));
  if ((counts?.byEmail ?? 0) > LOGIN_MAX_FAILURES || (counts?.byClient ?? 0) > LOGIN_MAX_FAILURES) {
    await forget();
    throw new AppError('rate-limited', 'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in 15 Minuten erneut.');
  }

  const [user] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, input.email));
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !valid) throw new AppError('unauthenticated', INVALID_CREDENTIALS);
  // A successful sign-in forgives this email's earlier typos.
  await db.delete(loginAttempts).where(or(eq(loginAttempts.id, attempt!.id), eq(loginAttempts.email, input.email)));
  return createSession(db, { id: user.id, email: user.email }, now);
}

/** The signed-in user of a request, or 401. */
export async function requireSession(req: Request, db?: Database): Promise<SessionInfo & { sessionId: string }> {
  const session = await sessionFromAccessToken(db ?? (await getDb()), readCookies(req)[ACCESS_COOKIE]);
  if (!session) throw new AppError('unauthenticated', 'No valid session.');
  return session;
}

/**
 * The guard of every /api/admin/* endpoint: a cross-site state-changing
 * request 403, no valid session 401, a signed-in non-admin 403.
 */
export async function requireAdmin(req: Request, db?: Database): Promise<SessionInfo & { sessionId: string }> {
  assertSameOrigin(req);
  const session = await requireSession(req, db);
  if (!session.isAdmin) throw new AppError('forbidden', 'Admin role required.');
  return session;
}

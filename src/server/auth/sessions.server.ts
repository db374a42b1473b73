/**
 * Server-side sessions: a row per sign-in holding the SHA-256 of the current
 * refresh token (rotated on every refresh) and revoked at logout. An access
 * token is only accepted while its session row is live.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { practiceSettings, sessions, userRoles, users } from '../../../db/schema';
import { hasFactorSql } from './second-factor-pending.server';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  SESSION_TTL_SECONDS,
  newRefreshToken,
  nextRefreshToken,
  refreshTokenSessionId,
  sha256Hex,
  signAccessToken,
  verifyAccessToken,
} from './tokens.server';

export interface SessionUser {
  id: string;
  email: string;
}

/** What login, refresh and GET session answer. */
export interface SessionInfo {
  user: SessionUser;
  isAdmin: boolean;
  expiresAt: string;
  /**
   * The second factor of this session (docs/decisions/027-staff-second-factor.md):
   * `passed` (the account has one and this session passed it), `none` (no
   * factor, none required) or `enrolment-required` (the practice requires
   * one and the account has none: only enrolment is open to it).
   */
  secondFactor: 'passed' | 'none' | 'enrolment-required';
}

/**
 * The columns that decide a session's second-factor state, for a select
 * over `sessions` joined with `users`: whether the account has a confirmed
 * factor, whether the practice requires one, and when the session passed it.
 */
const secondFactorColumns = {
  enrolled: hasFactorSql(users.id).mapWith((v: unknown) => v === true),
  required: sql<boolean>`coalesce((select s.require_second_factor from ${practiceSettings} s where s.id), false)`.mapWith((v: unknown) => v === true),
  passedAt: sessions.secondFactorAt,
};

/**
 * The state of a session, or null when the account has a factor this
 * session never passed (it predates the enrolment): such a session is no
 * session at all.
 */
function secondFactorState(row: { enrolled: boolean; required: boolean; passedAt: Date | null }): SessionInfo['secondFactor'] | null {
  if (row.enrolled) return row.passedAt ? 'passed' : null;
  return row.required ? 'enrolment-required' : 'none';
}

export interface IssuedSession {
  info: SessionInfo;
  sessionId: string;
  accessToken: string;
  refreshToken: string;
  accessMaxAge: number;
  refreshMaxAge: number;
}

export async function isAdmin(db: Database, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: userRoles.id })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.role, 'admin')))
    .limit(1);
  return rows.length > 0;
}

async function issue(db: Database, user: SessionUser, sessionId: string, refreshToken: string, now: Date): Promise<IssuedSession | null> {
  const [row] = await db
    .select(secondFactorColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId));
  const secondFactor = row ? secondFactorState(row) : null;
  if (!secondFactor) return null;
  const { token, expiresAt } = await signAccessToken({ userId: user.id, sessionId }, now);
  return {
    info: { user, isAdmin: await isAdmin(db, user.id), expiresAt: expiresAt.toISOString(), secondFactor },
    sessionId,
    accessToken: token,
    refreshToken,
    accessMaxAge: ACCESS_TOKEN_TTL_SECONDS,
    refreshMaxAge: SESSION_TTL_SECONDS,
  };
}

/** The longest User-Agent a session keeps (staff data; more says nothing more about browser and system). */
export const MAX_USER_AGENT_LENGTH = 512;

/** The User-Agent header as a session keeps it: cut to its first 512 characters, null when absent. */
export function sessionUserAgent(req: Request): string | null {
  const value = req.headers.get('user-agent')?.trim();
  return value ? value.slice(0, MAX_USER_AGENT_LENGTH) : null;
}

/**
 * A new session; `secondFactorAt` when it passed the second factor (the
 * code step of sign-in, a passkey), `userAgent` from sessionUserAgent.
 */
export async function createSession(
  db: Database,
  user: SessionUser,
  now: Date = new Date(),
  options: { secondFactorAt?: Date; userAgent?: string | null } = {},
): Promise<IssuedSession> {
  const id = randomUUID();
  const refreshToken = newRefreshToken(id);
  const [row] = await db
    .insert(sessions)
    .values({
      id,
      userId: user.id,
      refreshTokenHash: sha256Hex(refreshToken),
      expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
      lastUsedAt: now,
      createdAt: now,
      secondFactorAt: options.secondFactorAt ?? null,
      userAgent: options.userAgent ?? null,
    })
    .returning({ id: sessions.id });
  const issued = await issue(db, user, row!.id, refreshToken, now);
  // Only callers that checked the factor (or an account without one) open sessions.
  if (!issued) throw new Error('session opened without its second factor');
  return issued;
}

/**
 * How long after a rotation a refresh with the token it replaced still
 * counts as the same refresh arriving late (two tabs, a laptop waking up)
 * rather than a replay.
 */
export const REFRESH_GRACE_SECONDS = 30;

/**
 * Exchanges a live refresh token for its successor (the old one stops
 * working) and a new access token. Null when the token is unknown, rotated
 * away, revoked or expired.
 *
 * Races: the successor is derived from the token (nextRefreshToken), and
 * one UPDATE matching the current hash decides the winner. A refresh that
 * loses with the same token within REFRESH_GRACE_SECONDS finds it as the
 * session's previous token and gets the winner's successor – both callers
 * (and the one cookie jar they share) end up with the same working session.
 *
 * Reuse detection (OAuth 2.0 Security BCP): any other token the server
 * issued for the session – older ones, or the previous one after the grace
 * window – has been used before, by its owner or by a thief. Either way the
 * whole session is revoked, so the newer token (whoever holds it) stops
 * working too.
 */
export async function rotateSession(db: Database, refreshToken: string, now: Date = new Date()): Promise<IssuedSession | null> {
  const sessionId = refreshTokenSessionId(refreshToken);
  if (!sessionId) return null;
  const next = nextRefreshToken(sessionId, refreshToken);
  const live = and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now));
  const [row] = await db
    .update(sessions)
    .set({
      refreshTokenHash: sha256Hex(next),
      previousRefreshTokenHash: sha256Hex(refreshToken),
      rotatedAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
    })
    .where(and(eq(sessions.refreshTokenHash, sha256Hex(refreshToken)), live))
    .returning({ id: sessions.id, userId: sessions.userId });
  // Lost a race within the grace window: the winner's successor is this token's successor.
  const [late] = row
    ? []
    : await db
        .select({ id: sessions.id, userId: sessions.userId })
        .from(sessions)
        .where(
          and(
            eq(sessions.id, sessionId),
            eq(sessions.previousRefreshTokenHash, sha256Hex(refreshToken)),
            eq(sessions.refreshTokenHash, sha256Hex(next)),
            gt(sessions.rotatedAt, new Date(now.getTime() - REFRESH_GRACE_SECONDS * 1000)),
            live,
          ),
        );
  const session = row ?? late;
  if (!session) {
    const revoked = await db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (revoked.length > 0) console.warn('refresh token reused: its session is revoked');
    return null;
  }
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, session.userId));
  if (!user) return null;
  return issue(db, user, session.id, next, now);
}

/** Revokes the session a refresh token or a session id belongs to; silent when there is none. */
export async function revokeSession(
  db: Database,
  by: { refreshToken?: string; sessionId?: string },
  now: Date = new Date(),
): Promise<void> {
  if (by.refreshToken) {
    await db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.refreshTokenHash, sha256Hex(by.refreshToken)), isNull(sessions.revokedAt)));
  }
  if (by.sessionId && /^[0-9a-f-]{36}$/i.test(by.sessionId)) {
    await db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.id, by.sessionId), isNull(sessions.revokedAt)));
  }
}

/** The session behind an access token, or null (bad token, revoked or expired session, deleted user). */
export async function sessionFromAccessToken(
  db: Database,
  token: string | undefined,
  now: Date = new Date(),
): Promise<SessionInfo & { sessionId: string } | null> {
  if (!token) return null;
  const claims = await verifyAccessToken(token);
  if (!claims || !/^[0-9a-f-]{36}$/i.test(claims.sessionId) || !/^[0-9a-f-]{36}$/i.test(claims.userId)) return null;
  // Session, user and role in one statement: one round trip and one snapshot, so an
  // admin removed by a colleague at that moment is signed out (401), never half-seen.
  // isAdmin fails closed: anything but a real true from the driver is no admin.
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      isAdmin: sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.role} = 'admin')`.mapWith((v: unknown) => v === true),
      ...secondFactorColumns,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, claims.sessionId),
        eq(sessions.userId, claims.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    );
  if (!row) return null;
  const secondFactor = secondFactorState(row);
  if (!secondFactor) return null;
  return {
    user: { id: row.id, email: row.email },
    isAdmin: row.isAdmin,
    expiresAt: claims.expiresAt.toISOString(),
    secondFactor,
    sessionId: claims.sessionId,
  };
}

/**
 * Ends every live session of a user except `keepSessionId` (own password
 * change: the other devices sign out, this one stays). Without a session to
 * keep, all of them end (password reset).
 */
export async function revokeOtherSessions(
  db: Database,
  userId: string,
  keepSessionId?: string,
  now: Date = new Date(),
): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keepSessionId ? ne(sessions.id, keepSessionId) : undefined))
    .returning({ id: sessions.id });
  return rows.length;
}

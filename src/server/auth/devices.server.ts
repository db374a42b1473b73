/**
 * "Angemeldete Geräte" (docs/decisions/037-passkeys-sessions-guessing.md):
 * the live sessions of an account, each with the browser and system read
 * from the User-Agent it signed in with (bowser), when it began and when it
 * was last used (sign-in and every refresh), and whether it is the one
 * asking. Its owner ends one ("Abmelden") or all others ("Alle anderen
 * abmelden"); an admin sees and ends a colleague's. Every ending is an
 * audit row naming account and device.
 *
 * To tell sessions apart (docs/decisions/041-staff-messages-devices-printouts.md)
 * each also shows the name its owner may give it ("Empfang PC 2"), and an
 * ended session keeps who ended it (`owner` or `admin`), so the ended
 * device's next refresh can say why (src/server/actions/auth-refresh.server.ts).
 */
import Bowser from 'bowser';
import { and, desc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { sessions, users } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import { recordAudit, type AuditActor } from '../audit.server';
import { hasFactorSql } from './second-factor-pending.server';

export interface DeviceSessionDto {
  id: string;
  /** As the browser sent it at sign-in, cut to 512 characters; null for sessions from before it was kept. */
  user_agent: string | null;
  /** "Chrome 120", "Safari 17.1"; null when the User-Agent names none. */
  browser: string | null;
  /** "Windows 10", "macOS", "iOS 17.1"; null when the User-Agent names none. */
  system: string | null;
  created_at: string;
  last_used_at: string;
  /** The session asking. */
  current: boolean;
  /** The name its owner gave it ("Empfang PC 2"); null: none. */
  name: string | null;
}

const major = (version: string | undefined) => version?.split('.')[0] || '';
const versioned = (name: string | undefined, version: string) => (name ? (version ? `${name} ${version}` : name) : null);

/** Browser and system of a User-Agent, as "Angemeldete Geräte" shows them. */
export function describeUserAgent(userAgent: string | null): { browser: string | null; system: string | null } {
  if (!userAgent) return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  const os = parsed.os;
  // Windows by its marketing name ("10"); phones by their major version; macOS and Linux report a frozen or no version.
  const osVersion = os.name === 'Windows' ? (os.versionName ?? '') : os.name === 'iOS' || os.name === 'Android' || os.name === 'iPadOS' ? (os.version ?? '') : '';
  return { browser: versioned(parsed.browser.name, major(parsed.browser.version)), system: versioned(os.name, osVersion) };
}

/** A session counts while it is neither revoked nor expired, and, for an account with a factor, passed it. */
function live(now: Date) {
  return and(
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
    or(sql`not ${hasFactorSql(sessions.userId)}`, sql`${sessions.secondFactorAt} is not null`),
  );
}

/** The account's live sessions, most recently used first. */
export async function listSessions(db: Database, userId: string, currentSessionId: string | null, now: Date = new Date()): Promise<DeviceSessionDto[]> {
  const rows = await db
    .select({ id: sessions.id, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt, name: sessions.name })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), live(now)))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
  return rows.map((r) => ({
    id: r.id,
    user_agent: r.userAgent,
    ...describeUserAgent(r.userAgent),
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt.toISOString(),
    current: r.id === currentSessionId,
    name: r.name,
  }));
}

/**
 * Names one of one's own live sessions ("Empfang PC 2"; null removes the
 * name); 404 when it is no live session of this account. Not audited: a
 * name changes nothing about who may sign in.
 */
export async function nameOwnSession(db: Database, actor: AuditActor & { sessionId: string }, sessionId: string, name: string | null, now: Date = new Date()): Promise<DeviceSessionDto> {
  const named = await db
    .update(sessions)
    .set({ name })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, actor.user.id), live(now)))
    .returning({ id: sessions.id });
  if (named.length === 0) throw new AppError('not-found', 'Unknown session.');
  const [row] = (await listSessions(db, actor.user.id, actor.sessionId, now)).filter((s) => s.id === sessionId);
  if (!row) throw new AppError('not-found', 'Unknown session.');
  return row;
}

/** "kollegin@praxis.example: Chrome 120 auf Windows 10", with its name when it has one ("… (Empfang PC 2)"). */
function deviceLabel(email: string, userAgent: string | null, name: string | null = null): string {
  const { browser, system } = describeUserAgent(userAgent);
  const device = [browser, system].filter(Boolean).join(' auf ') || 'unbekanntes Gerät';
  return `${email}: ${device}${name ? ` (${name})` : ''}`;
}

/**
 * Whether a refresh token belongs to a session ended under "Angemeldete
 * Geräte" (by its owner on another device, or by an admin). Only the holder
 * of the session's last token learns it: a stranger without it learns
 * nothing about which sessions exist (docs/decisions/041).
 */
export async function endedByStaff(db: Database, refreshTokenHash: string, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ endedBy: sessions.endedBy })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.refreshTokenHash, refreshTokenHash), sql`${sessions.endedBy} is not null`));
  return row !== undefined;
}

/**
 * Ends sessions of `ownerId` (all live ones, or only `only`, or all but
 * `keep`) and writes an audit row per session ended, in one transaction.
 * Returns how many ended.
 */
async function endSessions(
  db: Database,
  actor: AuditActor,
  ownerId: string,
  which: { only?: string; keep?: string },
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, ownerId));
    if (!owner) throw new AppError('not-found', 'Unknown user.');
    const ended = await tx
      .update(sessions)
      // Who ended it, so the ended device's sign-in page can say why (docs/decisions/041).
      .set({ revokedAt: now, endedBy: actor.user.id === ownerId ? 'owner' : 'admin' })
      .where(
        and(
          eq(sessions.userId, ownerId),
          live(now),
          which.only ? eq(sessions.id, which.only) : undefined,
          which.keep ? ne(sessions.id, which.keep) : undefined,
        ),
      )
      .returning({ id: sessions.id, userAgent: sessions.userAgent, name: sessions.name });
    for (const s of ended) {
      await recordAudit(tx, actor, { action: 'session-end', entity: 'session', entityId: s.id, label: deviceLabel(owner.email, s.userAgent, s.name) }, now);
    }
    return ended.length;
  });
}

/** "Abmelden" on one session of one's own account (the current one too); 404 when it is no live session of this account. */
export async function endOwnSession(db: Database, actor: AuditActor, sessionId: string, now: Date = new Date()): Promise<void> {
  if ((await endSessions(db, actor, actor.user.id, { only: sessionId }, now)) === 0) throw new AppError('not-found', 'Unknown session.');
}

/** "Alle anderen abmelden": every live session of one's own account but the asking one. */
export async function endOtherSessions(db: Database, actor: AuditActor & { sessionId: string }, now: Date = new Date()): Promise<number> {
  return endSessions(db, actor, actor.user.id, { keep: actor.sessionId }, now);
}

/** An admin ends one of a colleague's sessions, or (no `sessionId`) all of them; 404 for an unknown account or session. */
export async function endColleagueSessions(
  db: Database,
  actor: AuditActor,
  colleagueId: string,
  sessionId?: string,
  now: Date = new Date(),
): Promise<number> {
  const ended = await endSessions(db, actor, colleagueId, sessionId ? { only: sessionId } : {}, now);
  if (sessionId && ended === 0) throw new AppError('not-found', 'Unknown session.');
  return ended;
}

/** An admin's view of a colleague's sessions; 404 for an unknown account. */
export async function listColleagueSessions(db: Database, colleagueId: string, currentSessionId: string, now: Date = new Date()): Promise<DeviceSessionDto[]> {
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.id, colleagueId));
  if (!owner) throw new AppError('not-found', 'Unknown user.');
  return listSessions(db, colleagueId, currentSessionId, now);
}

/**
 * Single-use, short-lived proofs of a sign-in step, kept on the server
 * (`auth_challenges`; docs/decisions/037-passkeys-sessions-guessing.md):
 *
 * - `second-factor`: the pending sign-in between password and code. The
 *   cookie carries its id in a signed token; the code step that opens the
 *   session spends it, so the same cookie never opens a second one.
 * - `passkey-register`: a passkey registration's challenge, bound to the
 *   session that asked for it.
 * - `passkey-login`: a passkey sign-in's challenge, bound to a cookie of
 *   the browser that asked for it.
 *
 * A proof is claimed by one UPDATE that matches it only while unused and
 * unexpired, so two requests racing with it get it once between them.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { authChallenges } from '../../../db/schema';

export type ChallengePurpose = 'passkey-register' | 'passkey-login' | 'second-factor';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** How many passed proofs one request removes at most (keeps every statement cheap). */
const PURGE_BATCH = 20;

export interface IssuedChallenge {
  id: string;
  expiresAt: Date;
}

/** Stores a new proof and removes a few expired ones. */
export async function issueChallenge(
  db: Database,
  input: { purpose: ChallengePurpose; ttlSeconds: number; userId?: string; sessionId?: string; challenge?: string },
  now: Date = new Date(),
): Promise<IssuedChallenge> {
  await db.execute(sql`
    delete from ${authChallenges} where id in (
      select id from ${authChallenges} where expires_at < ${now.toISOString()}::timestamptz limit ${PURGE_BATCH} for update skip locked)`);
  const expiresAt = new Date(now.getTime() + input.ttlSeconds * 1000);
  const [row] = await db
    .insert(authChallenges)
    .values({
      purpose: input.purpose,
      userId: input.userId ?? null,
      sessionId: input.sessionId ?? null,
      challenge: input.challenge ?? null,
      expiresAt,
      createdAt: now,
    })
    .returning({ id: authChallenges.id });
  return { id: row!.id, expiresAt };
}

export interface ClaimedChallenge {
  id: string;
  userId: string | null;
  sessionId: string | null;
  challenge: string | null;
}

/**
 * Spends a proof: one UPDATE that matches only an unused, unexpired proof
 * of this purpose (and, when given, of this user or session). Null when
 * there is none: unknown, already used, expired, or another's.
 */
export async function claimChallenge(
  db: Database,
  id: string | null | undefined,
  purpose: ChallengePurpose,
  bound: { userId?: string; sessionId?: string } = {},
  now: Date = new Date(),
): Promise<ClaimedChallenge | null> {
  if (!id || !UUID.test(id)) return null;
  const [row] = await db
    .update(authChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(authChallenges.id, id),
        eq(authChallenges.purpose, purpose),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, now),
        bound.userId ? eq(authChallenges.userId, bound.userId) : undefined,
        bound.sessionId ? eq(authChallenges.sessionId, bound.sessionId) : undefined,
      ),
    )
    .returning({ id: authChallenges.id, userId: authChallenges.userId, sessionId: authChallenges.sessionId, challenge: authChallenges.challenge });
  return row ?? null;
}

/**
 * Gives a claimed proof back (the step it was claimed for failed for a
 * reason its owner may retry, a mistyped code): usable again until it
 * expires.
 */
export async function releaseChallenge(db: Database, id: string, now: Date = new Date()): Promise<void> {
  await db
    .update(authChallenges)
    .set({ usedAt: null })
    .where(and(eq(authChallenges.id, id), gt(authChallenges.expiresAt, now)));
}

/** Removes every unused proof of a user (a password reset: nothing started before it may finish after). */
export async function dropUserChallenges(db: Database, userId: string): Promise<void> {
  await db.delete(authChallenges).where(eq(authChallenges.userId, userId));
}


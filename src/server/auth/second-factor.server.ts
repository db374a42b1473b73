/**
 * The staff second factor (docs/decisions/027-staff-second-factor.md,
 * docs/decisions/037-passkeys-sessions-guessing.md): enrolment of TOTP
 * under "Mein Konto" (the QR code drawn on the server as SVG with
 * `qrcode`, so no third party sees the secret), sign-in's code step,
 * removal with a recovery code, a colleague's reset and the practice's
 * requirement. The codes themselves: totp-codes.server.ts.
 *
 * Sign-in with a factor is two steps: the password step hands out a
 * short-lived pending sign-in (a cookie naming a proof kept on the server,
 * no session), the code step opens the session, records on it that it
 * passed the factor and spends the pending sign-in.
 */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { Secret } from 'otpauth';
import type { Database } from '../../../db/client';
import { practiceSettings, sessions, staffPasskeys, staffRecoveryCodes, staffSecondFactors, users } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import { dataKeyRing } from '../appointment-contact/keys.server';
import { auditLabel } from '../audit-labels.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { buildSecondFactorResetEmail } from '../email/messages/account.server';
import { enqueueEmails } from '../email/queue.server';
import { createSession, type IssuedSession, type SessionInfo } from './sessions.server';
import { claimChallenge, releaseChallenge } from './challenges.server';
import { confirmIdentity, type FactorProof } from './factor-proof.server';
import { codeStepClosed, recordWrongCode } from './guessing.server';
import { hasSecondFactor, pendingSignIn } from './second-factor-pending.server';
import {
  RECOVERY_CODE_COUNT,
  SIX_DIGITS,
  acceptCode,
  countAttempt,
  hasTotp,
  invalidCode,
  newRecoveryCode,
  recoveryHash,
  sealSecret,
  totpFor,
} from './totp-codes.server';
import { queueSecurityNotice } from './security-notice.server';

export type SecondFactorState = SessionInfo['secondFactor'];
// ---------------------------------------------------------------------------
// Sign-in

/** Who signs in: the client address (the limits) and the browser (the session's "Angemeldete Geräte" entry). */
export interface SignInClient {
  ip: string;
  userAgent: string | null;
}

const signInExpired = () => new AppError('unauthenticated', 'Die Anmeldung ist abgelaufen. Bitte melden Sie sich erneut an.');

/**
 * The code step of sign-in: a 6-digit code or a recovery code for the
 * pending sign-in; opens the session (which records that it passed the
 * factor). 401 `unauthenticated` without a live pending sign-in (also one
 * already spent by the step that opened a session, or claimed by a step
 * running at the same moment), 401 `invalid-code` for a wrong, used or
 * replayed code, 423 `code-step-closed` for a 6-digit code after 30 wrong
 * ones in a day, 429 beyond the limits.
 *
 * A wrong code counts towards the owner's alert (guessing.server.ts),
 * whose email is queued with the count; `alerts.queued` learns its ids so
 * the caller sends it after the answer.
 */
export async function completeSignIn(
  db: Database,
  pendingToken: string | undefined,
  code: string,
  client: SignInClient,
  alerts: { siteUrl: string; queued: (ids: string[]) => void },
  now: Date = new Date(),
): Promise<IssuedSession> {
  const pending = await pendingSignIn(pendingToken, now);
  if (!pending) throw signInExpired();
  // Claimed for this attempt, given back unless it opens the session: the cookie is single use.
  const claimed = await claimChallenge(db, pending.proofId, 'second-factor', { userId: pending.userId }, now);
  if (!claimed) throw signInExpired();
  let opened = false;
  try {
    const [user] = await db
      .select({ id: users.id, email: users.email, closedAt: users.codeStepClosedAt })
      .from(users)
      .where(eq(users.id, pending.userId));
    if (!user) throw signInExpired();
    // While closed only a 6-digit code is refused: a recovery code proves more than the password.
    if (user.closedAt && SIX_DIGITS.test(code.trim())) throw codeStepClosed();
    const attempt = await countAttempt(db, user.id, client.ip, now);
    if (!(await acceptCode(db, user.id, code, now))) {
      alerts.queued(await recordWrongCode(db, user, alerts.siteUrl, now));
      throw invalidCode();
    }
    await attempt.accepted();
    const session = await createSession(db, user, now, { secondFactorAt: now, userAgent: client.userAgent });
    opened = true;
    return session;
  } finally {
    if (!opened) await releaseChallenge(db, claimed.id, now);
  }
}

// ---------------------------------------------------------------------------
// Enrolment under "Mein Konto"

export interface EnrolmentStart {
  secret: string;
  otpauth_url: string;
  qr_svg: string;
}

/** How long a setup that waits for its first code keeps another session from starting one. */
export const SETUP_HOLD_MS = 15 * 60 * 1000;

/**
 * Starts (or restarts) an enrolment: a new secret, sealed, waiting for its
 * first code, bound to this session. Needs the current password (401
 * `wrong-password`; with a factor present also a code:
 * factor-proof.server.ts). 409 while a confirmed factor exists (remove it
 * first with a recovery code, or ask a colleague to reset it), and 409
 * while a setup another live session started in the last 15 minutes waits
 * for its code: no session replaces another's setup.
 */
export async function startEnrolment(
  db: Database,
  actor: AuditActor & { sessionId: string },
  proof: FactorProof,
  ip: string,
  now: Date = new Date(),
): Promise<EnrolmentStart> {
  if (await hasTotp(db, actor.user.id)) throw alreadyEnrolled();
  await confirmIdentity(db, actor.user.id, proof, 'password-and-code', ip, now);
  const base32 = new Secret({ size: 20 }).base32;
  const sealed = sealSecret(base32, actor.user.id, await dataKeyRing());
  const heldByOther = sql`(${staffSecondFactors.sessionId} is not null and ${staffSecondFactors.sessionId} <> ${actor.sessionId}
    and ${staffSecondFactors.createdAt} > ${new Date(now.getTime() - SETUP_HOLD_MS).toISOString()}::timestamptz
    and exists (select 1 from ${sessions} s where s.id = ${staffSecondFactors.sessionId} and s.revoked_at is null and s.expires_at > ${now.toISOString()}::timestamptz))`;
  const written = await db
    .insert(staffSecondFactors)
    .values({ userId: actor.user.id, ...sealed, sessionId: actor.sessionId, createdAt: now })
    .onConflictDoUpdate({
      target: staffSecondFactors.userId,
      set: { keyId: sealed.keyId, sealed: sealed.sealed, lastStep: null, sessionId: actor.sessionId, createdAt: now },
      setWhere: and(isNull(staffSecondFactors.confirmedAt), sql`not ${heldByOther}`),
    })
    .returning({ userId: staffSecondFactors.userId });
  if (written.length === 0) {
    if (await hasTotp(db, actor.user.id)) throw alreadyEnrolled();
    throw new AppError('conflict', 'Die Einrichtung wurde in einer anderen Sitzung begonnen. Schließen Sie sie dort ab, oder beginnen Sie in 15 Minuten neu.');
  }
  const url = totpFor(base32, actor.user.email).toString();
  // The QR code library is loaded by the setup that draws one (docs/decisions/044-rush-cdn-availability-pool.md).
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret: base32, otpauth_url: url, qr_svg: svg };
}

function alreadyEnrolled(): AppError {
  return new AppError('conflict', 'Für dieses Konto ist die Zwei-Faktor-Anmeldung bereits eingerichtet.');
}

/**
 * Confirms an enrolment with its first code: the factor counts from now,
 * this session has passed it, the account's other sessions end (they never
 * did), and 10 new recovery codes are made, returned once (only their
 * hashes stay).
 */
export async function confirmEnrolment(
  db: Database,
  actor: AuditActor & { sessionId: string },
  code: string,
  ip: string,
  now: Date = new Date(),
): Promise<{ recovery_codes: string[] }> {
  // Only the session that started the setup confirms it.
  const [pending] = await db
    .select({ userId: staffSecondFactors.userId })
    .from(staffSecondFactors)
    .where(and(eq(staffSecondFactors.userId, actor.user.id), isNull(staffSecondFactors.confirmedAt), eq(staffSecondFactors.sessionId, actor.sessionId)));
  if (!pending) throw new AppError('conflict', 'Es wartet keine Einrichtung dieser Sitzung auf Bestätigung. Bitte beginnen Sie die Einrichtung neu.');
  const attempt = await countAttempt(db, actor.user.id, ip, now);
  if (!(await acceptCode(db, actor.user.id, code, now, { pending: true }))) throw invalidCode();
  await attempt.accepted();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, actor.user.id));
    await tx.insert(staffRecoveryCodes).values(codes.map((c) => ({ userId: actor.user.id, codeHash: recoveryHash(c), createdAt: now })));
    await tx.update(sessions).set({ secondFactorAt: now }).where(eq(sessions.id, actor.sessionId));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, actor.user.id), ne(sessions.id, actor.sessionId), isNull(sessions.revokedAt)));
    await recordAudit(tx, actor, { action: 'second-factor-enrol', entity: 'user', entityId: actor.user.id, label: auditLabel.user(actor.user) }, now);
    await queueSecurityNotice(tx, actor.user.id, 'totp-added', {}, now);
  });
  return { recovery_codes: codes };
}

/**
 * Removes one's own factor, which takes an unused recovery code (used up
 * by this): nobody resets their own factor with a stolen session alone.
 * Limited like sign-in codes.
 */
export async function removeOwnSecondFactor(db: Database, actor: AuditActor, code: string, ip: string, now: Date = new Date()): Promise<void> {
  if (!(await hasTotp(db, actor.user.id))) throw new AppError('conflict', 'Für dieses Konto ist keine Zwei-Faktor-Anmeldung eingerichtet.');
  const attempt = await countAttempt(db, actor.user.id, ip, now);
  if (!(await acceptCode(db, actor.user.id, code, now, { recoveryOnly: true }))) throw invalidCode();
  await attempt.accepted();
  await db.transaction(async (tx) => {
    await tx.delete(staffSecondFactors).where(eq(staffSecondFactors.userId, actor.user.id));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, actor.user.id));
    await recordAudit(tx, actor, { action: 'second-factor-remove', entity: 'user', entityId: actor.user.id, label: auditLabel.user(actor.user) }, now);
    await queueSecurityNotice(tx, actor.user.id, 'totp-removed', {}, now);
  });
}

/** What "Mein Konto" shows: whether a factor is set up, and how many recovery codes are left. */
export async function secondFactorStatus(db: Database, userId: string): Promise<{ enrolled: boolean; recovery_codes_left: number; required: boolean }> {
  const [row] = await db
    .select({
      enrolled: sql<boolean>`exists (select 1 from ${staffSecondFactors} f where f.user_id = ${userId} and f.confirmed_at is not null)`.mapWith((v: unknown) => v === true),
      left: sql<number>`(select count(*) from ${staffRecoveryCodes} c where c.user_id = ${userId} and c.used_at is null)`.mapWith(Number),
      required: sql<boolean>`coalesce((select s.require_second_factor from ${practiceSettings} s where s.id), false)`.mapWith((v: unknown) => v === true),
    })
    .from(sql`(select 1) one`);
  return { enrolled: row?.enrolled ?? false, recovery_codes_left: row?.left ?? 0, required: row?.required ?? false };
}

// ---------------------------------------------------------------------------
// A colleague's reset (Benutzer)

/**
 * An admin resets a colleague's factor (a lost phone): TOTP factor,
 * recovery codes and passkeys go, the colleague's sessions end, audited;
 * the colleague's email is queued with the change. Never one's own (403):
 * that takes a recovery code. 404 unknown user, 409 when there is nothing
 * to reset.
 */
export async function resetColleagueSecondFactor(
  db: Database,
  actor: AuditActor,
  targetId: string,
  mail: { siteUrl: string },
  now: Date = new Date(),
): Promise<{ emailed: boolean }> {
  if (targetId === actor.user.id) {
    throw new AppError('forbidden', 'Ihre eigene Zwei-Faktor-Anmeldung setzen Sie unter „Mein Konto“ mit einem Wiederherstellungscode zurück.');
  }
  const target = await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, targetId)).for('update');
    if (!user) throw new AppError('not-found', 'Unknown user.');
    // Both kinds go: the TOTP factor with its recovery codes, and every passkey.
    const removed = await tx.delete(staffSecondFactors).where(eq(staffSecondFactors.userId, targetId)).returning({ userId: staffSecondFactors.userId });
    const passkeys = await tx.delete(staffPasskeys).where(eq(staffPasskeys.userId, targetId)).returning({ id: staffPasskeys.id });
    if (removed.length === 0 && passkeys.length === 0) throw new AppError('conflict', 'Dieses Konto hat keine Zwei-Faktor-Anmeldung.');
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, targetId));
    await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, targetId), isNull(sessions.revokedAt)));
    await recordAudit(tx, actor, { action: 'second-factor-reset', entity: 'user', entityId: targetId, label: auditLabel.user(user) }, now);
    // The colleague's email, queued with the reset.
    const message = buildSecondFactorResetEmail({ to: user.email, resetBy: actor.user.email, siteUrl: mail.siteUrl });
    await enqueueEmails(tx, [{ message, kind: 'account-second-factor-reset', audience: 'staff' }], undefined, now);
    return user;
  });
  return { emailed: target !== null };
}

// ---------------------------------------------------------------------------
// "Zwei-Faktor-Pflicht"

export interface PracticeSettingsDto {
  require_second_factor: boolean;
}

export async function readSettings(db: Database): Promise<PracticeSettingsDto> {
  const [row] = await db.select({ require: practiceSettings.requireSecondFactor }).from(practiceSettings).where(eq(practiceSettings.id, true));
  return { require_second_factor: row?.require ?? false };
}

/**
 * Turns the requirement on or off (audited). Turning it on takes an admin
 * who has a factor: otherwise the switch would send its own user to
 * enrolment at once.
 */
export async function updateSettings(db: Database, actor: AuditActor, input: PracticeSettingsDto, now: Date = new Date()): Promise<PracticeSettingsDto> {
  if (input.require_second_factor && !(await hasSecondFactor(db, actor.user.id))) {
    throw new AppError('conflict', 'Richten Sie zuerst Ihre eigene Zwei-Faktor-Anmeldung ein (Mein Konto), bevor Sie sie für alle verlangen.');
  }
  return db.transaction(async (tx) => {
    await tx
      .insert(practiceSettings)
      .values({ id: true, requireSecondFactor: input.require_second_factor, updatedAt: now })
      .onConflictDoUpdate({ target: practiceSettings.id, set: { requireSecondFactor: input.require_second_factor, updatedAt: now } });
    await recordAudit(
      tx,
      actor,
      { action: 'update', entity: 'settings', entityId: 'practice', label: input.require_second_factor ? 'Zwei-Faktor-Pflicht an' : 'Zwei-Faktor-Pflicht aus' },
      now,
    );
    return { require_second_factor: input.require_second_factor };
  });
}

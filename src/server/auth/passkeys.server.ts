/**
 * Passkeys (WebAuthn, @simplewebauthn/server; docs/decisions/037-passkeys-sessions-guessing.md).
 *
 * - The relying party is the site's host (SITE_URL); a deploy preview is
 *   its own relying party with its own origin, never another's. Outside
 *   production the local server's origins on that host count too.
 * - Registration ("Mein Konto"): the options need the current password
 *   (and a TOTP code when the account has one), their challenge is kept on
 *   the server bound to the session, single use, 5 minutes. Discoverable
 *   credentials with user verification required, so a passkey alone later
 *   signs in without an email.
 * - Sign-in (/auth, "Mit Passkey anmelden"): the options' challenge is kept
 *   bound to a cookie of the browser that asked; a passkey with user
 *   verification is both factors, so it opens the session itself. The
 *   signature counter is kept and must grow (when the authenticator counts)
 *   by a compare-and-set, so a cloned authenticator or a replay is refused.
 * - Stored: credential id, public key, counter, transports, name, created
 *   and last used. The public key never leaves the server.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { isUniqueViolation } from '../../../db/errors';
import { authChallenges, sessions, staffPasskeys, users } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { PasskeyAuthenticationInput, PasskeyDto, PasskeyRegistrationInput } from '../../lib/passkey-schemas';
import { auditLabel } from '../audit-labels.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { claimChallenge, issueChallenge, type ClaimedChallenge } from './challenges.server';
import { confirmIdentity, type FactorProof } from './factor-proof.server';
import { toDto } from './passkey-store.server';
import { PASSKEY_CHALLENGE_TTL_SECONDS, relyingParty } from './passkey-sign-in.server';
import { hasSecondFactor } from './second-factor-pending.server';
import { createSession, type IssuedSession } from './sessions.server';
import { queueSecurityNotice } from './security-notice.server';

/**
 * The WebAuthn library (with its certificate and CBOR parsers), loaded by
 * the ceremony that needs it: a function's cold start never pays for it
 * (docs/decisions/044-rush-cdn-availability-pool.md).
 */
const webauthn = () => import('@simplewebauthn/server');

/** More passkeys than this per account are refused: nobody needs them, and each is a way in. */
export const MAX_PASSKEYS_PER_ACCOUNT = 10;
/** EdDSA, ES256, RS256: what authenticators make. */
const ALGORITHMS = [-8, -7, -257];

const toBase64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const fromBase64url = (text: string) => Uint8Array.from(Buffer.from(text, 'base64url'));
/** The WebAuthn user handle of an account: its id's 16 bytes (no email, nothing personal). */
const userHandle = (userId: string) => Uint8Array.from(Buffer.from(userId.replace(/-/g, ''), 'hex'));

const notRecognised = () => new AppError('unauthenticated', 'Der Passkey wurde nicht erkannt. Bitte versuchen Sie es erneut oder melden Sie sich mit Passwort an.');
const registrationRefused = () =>
  new AppError('invalid-input', 'The passkey could not be registered.', { response: ['errors.passkeyInvalid'] });

// ---------------------------------------------------------------------------
// Registration under "Mein Konto"

/**
 * The options of a new passkey, after the current password (and a TOTP
 * code when the account has TOTP). The challenge is kept bound to this
 * session. 409 at MAX_PASSKEYS_PER_ACCOUNT.
 */
export async function registrationOptions(
  db: Database,
  actor: AuditActor & { sessionId: string },
  proof: FactorProof,
  ip: string,
  now: Date = new Date(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  await confirmIdentity(db, actor.user.id, proof, 'password-and-code', ip, now);
  const existing = await db
    .select({ credentialId: staffPasskeys.credentialId, transports: staffPasskeys.transports })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.userId, actor.user.id));
  if (existing.length >= MAX_PASSKEYS_PER_ACCOUNT) {
    throw new AppError('conflict', `Mehr als ${MAX_PASSKEYS_PER_ACCOUNT} Passkeys pro Konto sind nicht möglich. Entfernen Sie zuerst einen.`);
  }
  const rp = relyingParty();
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: actor.user.email,
    userDisplayName: actor.user.email,
    userID: userHandle(actor.user.id),
    timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
    attestationType: 'none',
    // The same authenticator twice would be one key under two names.
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await issueChallenge(
    db,
    { purpose: 'passkey-register', ttlSeconds: PASSKEY_CHALLENGE_TTL_SECONDS, userId: actor.user.id, sessionId: actor.sessionId, challenge: options.challenge },
    now,
  );
  return options;
}

/** Claims the unused challenge `value` of this purpose and binding: single use, as one UPDATE. */
async function claimByValue(
  db: Database,
  purpose: 'passkey-register',
  bound: { userId: string; sessionId: string },
  value: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(authChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(authChallenges.purpose, purpose),
        eq(authChallenges.userId, bound.userId),
        eq(authChallenges.sessionId, bound.sessionId),
        eq(authChallenges.challenge, value),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, now),
      ),
    )
    .returning({ id: authChallenges.id });
  return rows.length > 0;
}

/**
 * Checks the browser's answer to the registration options and keeps the
 * passkey. When it is the account's first factor, this session counts as
 * having passed it and the account's other sessions end (they never did),
 * as when TOTP is confirmed. 400 `errors.passkeyInvalid` for an answer
 * that does not verify (wrong origin or relying party, no user
 * verification, a challenge not issued to this session, used or expired);
 * 409 for a passkey already registered.
 */
export async function registerPasskey(
  db: Database,
  actor: AuditActor & { sessionId: string },
  input: PasskeyRegistrationInput,
  now: Date = new Date(),
): Promise<PasskeyDto> {
  const rp = relyingParty();
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    const { verifyRegistrationResponse } = await webauthn();
    verification = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: (challenge) => claimByValue(db, 'passkey-register', { userId: actor.user.id, sessionId: actor.sessionId }, challenge, now),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch {
    throw registrationRefused();
  }
  if (!verification.verified) throw registrationRefused();
  const { credential } = verification.registrationInfo;
  const firstFactor = !(await hasSecondFactor(db, actor.user.id));
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(staffPasskeys)
        .values({
          userId: actor.user.id,
          credentialId: credential.id,
          publicKey: toBase64url(credential.publicKey),
          counter: credential.counter,
          transports: (credential.transports ?? []).slice(0, 10),
          name: input.name,
          createdAt: now,
        })
        .returning();
      if (firstFactor) {
        await tx.update(sessions).set({ secondFactorAt: now }).where(eq(sessions.id, actor.sessionId));
        await tx
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(eq(sessions.userId, actor.user.id), sql`${sessions.id} <> ${actor.sessionId}`, isNull(sessions.revokedAt)));
      }
      await recordAudit(tx, actor, { action: 'passkey-add', entity: 'user', entityId: actor.user.id, label: `${auditLabel.user(actor.user)}: ${input.name}` }, now);
      await queueSecurityNotice(tx, actor.user.id, 'passkey-added', { passkeyName: input.name }, now);
      return toDto(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', 'Dieser Passkey ist bereits registriert.');
    throw error;
  }
}

// ---------------------------------------------------------------------------
// Sign-in on /auth

/**
 * Checks a passkey sign-in and opens the session, which has passed the
 * second factor (user verification is required: the passkey is both
 * factors). 401 for anything that does not verify: no or a spent
 * challenge, an unknown or removed passkey, another user's handle, a wrong
 * origin, no user verification, a counter that did not grow.
 */
export async function signInWithPasskey(
  db: Database,
  challengeId: string | undefined,
  response: PasskeyAuthenticationInput,
  client: { userAgent: string | null },
  now: Date = new Date(),
): Promise<IssuedSession> {
  const claimed: ClaimedChallenge | null = await claimChallenge(db, challengeId, 'passkey-login', {}, now);
  if (!claimed?.challenge) throw notRecognised();
  if (response.id !== response.rawId) throw notRecognised();
  const [passkey] = await db
    .select({
      id: staffPasskeys.id,
      userId: staffPasskeys.userId,
      credentialId: staffPasskeys.credentialId,
      publicKey: staffPasskeys.publicKey,
      counter: staffPasskeys.counter,
      transports: staffPasskeys.transports,
      email: users.email,
    })
    .from(staffPasskeys)
    .innerJoin(users, eq(users.id, staffPasskeys.userId))
    .where(eq(staffPasskeys.credentialId, response.id));
  if (!passkey) throw notRecognised();
  const handle = response.response.userHandle;
  if (handle && handle !== toBase64url(userHandle(passkey.userId))) throw notRecognised();
  const rp = relyingParty();
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    const { verifyAuthenticationResponse } = await webauthn();
    verification = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: claimed.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: { id: passkey.credentialId, publicKey: fromBase64url(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: true,
    });
  } catch {
    throw notRecognised();
  }
  if (!verification.verified || !verification.authenticationInfo.userVerified) throw notRecognised();
  // Compare-and-set: two sign-ins with one assertion (or a clone racing the original) move the counter once.
  const moved = await db
    .update(staffPasskeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: now })
    .where(and(eq(staffPasskeys.id, passkey.id), eq(staffPasskeys.counter, passkey.counter)))
    .returning({ id: staffPasskeys.id });
  if (moved.length === 0) throw notRecognised();
  return createSession(db, { id: passkey.userId, email: passkey.email }, now, { secondFactorAt: now, userAgent: client.userAgent });
}

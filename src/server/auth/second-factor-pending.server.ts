/**
 * The light half of the second factor (docs/decisions/027-staff-second-factor.md,
 * docs/decisions/037-passkeys-sessions-guessing.md), which every staff
 * request and the password step load: whether an account has a factor
 * (TOTP or a passkey), and the pending sign-in between password and code.
 * The codes, the QR code and the enrolment live in second-factor.server.ts,
 * the passkeys in passkeys.server.ts, so only their own routes bundle
 * otpauth, qrcode and the WebAuthn library.
 */
import { sql } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../../../db/client';
import { staffPasskeys, staffSecondFactors } from '../../../db/schema';
import { issueChallenge } from './challenges.server';
import { jwtKey } from './tokens.server';

/** How long the pending sign-in (password checked, code not yet) lasts. */
export const PENDING_TTL_SECONDS = 5 * 60;
const PENDING_ISSUER = 'praxis-second-factor';
export const ENROLMENT_REQUIRED = 'Bitte richten Sie zuerst die Zwei-Faktor-Anmeldung ein (Mein Konto).';

/** SQL: whether the account `userId` (a column or a value) has a confirmed TOTP factor or a passkey. */
export function hasFactorSql(userId: unknown) {
  return sql<boolean>`(exists (select 1 from ${staffSecondFactors} f where f.user_id = ${userId} and f.confirmed_at is not null)
    or exists (select 1 from ${staffPasskeys} p where p.user_id = ${userId}))`;
}

/** Whether the account has a second factor: a confirmed TOTP factor or a passkey. */
export async function hasSecondFactor(db: Database, userId: string): Promise<boolean> {
  const result = await db.execute(sql`select ${hasFactorSql(userId)} as has`);
  return (result as unknown as { rows: Array<{ has: unknown }> }).rows[0]?.has === true;
}

/**
 * The pending sign-in of a user whose password was right: a signed token
 * of 5 minutes naming a proof kept on the server (auth_challenges), which
 * the code step spends when it opens the session. No session yet.
 */
export async function pendingSignInToken(db: Database, userId: string, now: Date = new Date()): Promise<string> {
  const proof = await issueChallenge(db, { purpose: 'second-factor', ttlSeconds: PENDING_TTL_SECONDS, userId }, now);
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ purpose: 'second-factor' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setJti(proof.id)
    .setIssuer(PENDING_ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + PENDING_TTL_SECONDS)
    .sign(jwtKey());
}

/** The user and the server-side proof a pending sign-in token names, or null (bad, expired or foreign token). */
export async function pendingSignIn(token: string | undefined, now: Date): Promise<{ userId: string; proofId: string } | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, jwtKey(), { algorithms: ['HS256'], issuer: PENDING_ISSUER, currentDate: now });
    const uuid = /^[0-9a-f-]{36}$/i;
    if (payload.purpose !== 'second-factor' || typeof payload.sub !== 'string' || !uuid.test(payload.sub)) return null;
    if (typeof payload.jti !== 'string' || !uuid.test(payload.jti)) return null;
    return { userId: payload.sub, proofId: payload.jti };
  } catch {
    return null;
  }
}

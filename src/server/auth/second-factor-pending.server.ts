/**
 * The light half of the second factor (docs/decisions/027-staff-second-factor.md),
 * which every staff request and the password step load: whether an account
 * has a factor, and the pending sign-in between password and code. The
 * codes, the QR code and the enrolment live in second-factor.server.ts, so
 * only its own routes bundle otpauth and qrcode.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../../../db/client';
import { staffSecondFactors } from '../../../db/schema';
import { jwtKey } from './tokens.server';

/** How long the pending sign-in (password checked, code not yet) lasts. */
export const PENDING_TTL_SECONDS = 5 * 60;
const PENDING_ISSUER = 'praxis-second-factor';
export const ENROLMENT_REQUIRED = 'Bitte richten Sie zuerst die Zwei-Faktor-Anmeldung ein (Mein Konto).';

/** Whether the account has a confirmed second factor. */
export async function hasSecondFactor(db: Database, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: staffSecondFactors.userId })
    .from(staffSecondFactors)
    .where(and(eq(staffSecondFactors.userId, userId), isNotNull(staffSecondFactors.confirmedAt)));
  return rows.length > 0;
}

/** The pending sign-in of a user whose password was right: a signed token of 5 minutes, no session. */
export async function pendingSignInToken(userId: string, now: Date = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ purpose: 'second-factor' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(PENDING_ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + PENDING_TTL_SECONDS)
    .sign(jwtKey());
}

export async function pendingUserId(token: string | undefined, now: Date): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, jwtKey(), { algorithms: ['HS256'], issuer: PENDING_ISSUER, currentDate: now });
    return payload.purpose === 'second-factor' && typeof payload.sub === 'string' && /^[0-9a-f-]{36}$/i.test(payload.sub) ? payload.sub : null;
  } catch {
    return null;
  }
}


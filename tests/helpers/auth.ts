/**
 * Admin and non-admin users made directly in the database, with valid
 * session cookies, and forged tokens of every kind the guard must refuse.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, base64url } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../../db/client';
import { userRoles, users } from '../../db/schema';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../src/server/auth/cookies.server';
import { hashPassword } from '../../src/server/auth/password.server';
import { createSession, revokeSession } from '../../src/server/auth/sessions.server';
import { jwtKey } from '../../src/server/auth/tokens.server';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  sessionId: string;
  accessToken: string;
  refreshToken: string;
  /** `Cookie` header value carrying both session cookies. */
  cookie: string;
}

let counter = 0;

export async function createUser(db: Database, options: { admin: boolean; email?: string; password?: string }): Promise<TestUser> {
  const email = options.email ?? `${options.admin ? 'admin' : 'staff'}-${++counter}-${randomUUID().slice(0, 8)}@example.org`;
  const password = options.password ?? 'richtig-geheim';
  const [user] = await db.insert(users).values({ email, passwordHash: await hashPassword(password) }).returning();
  if (options.admin) await db.insert(userRoles).values({ userId: user!.id, role: 'admin' });
  const session = await createSession(db, { id: user!.id, email });
  return {
    id: user!.id,
    email,
    password,
    sessionId: session.sessionId,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    cookie: cookieHeader(session.accessToken, session.refreshToken),
  };
}

export const createAdmin = (db: Database, options: { email?: string; password?: string } = {}) =>
  createUser(db, { ...options, admin: true });
export const createNonAdmin = (db: Database, options: { email?: string; password?: string } = {}) =>
  createUser(db, { ...options, admin: false });

export function cookieHeader(accessToken: string, refreshToken?: string): string {
  return refreshToken ? `${ACCESS_COOKIE}=${accessToken}; ${REFRESH_COOKIE}=${refreshToken}` : `${ACCESS_COOKIE}=${accessToken}`;
}

export function accessCookie(accessToken: string): string {
  return `${ACCESS_COOKIE}=${accessToken}`;
}

async function sign(claims: { sub: string; sid: string }, key: Uint8Array, exp: number, iat: number): Promise<string> {
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer('praxis-admin')
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key);
}

/** Tokens for a real admin session that the guard must each refuse with 401. */
export async function forgedTokens(admin: TestUser): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: admin.id, sid: admin.sessionId };
  const [header, payload, signature] = admin.accessToken.split('.') as [string, string, string];

  // Tampered: the payload names another user, the signature is the original.
  const body = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as Record<string, unknown>;
  const tamperedPayload = base64url.encode(JSON.stringify({ ...body, sub: randomUUID() }));
  // alg=none: an unsigned token with the right claims.
  const noneHeader = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
  const nonePayload = base64url.encode(JSON.stringify({ ...body, exp: now + 600 }));

  return {
    tampered: `${header}.${tamperedPayload}.${signature}`,
    'bad signature': `${header}.${payload}.${signature.slice(0, -4)}${signature.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`,
    expired: await sign(claims, jwtKey(), now - 60, now - 1000),
    'alg=none': `${noneHeader}.${nonePayload}.`,
    'wrong secret': await sign(claims, new TextEncoder().encode('x'.repeat(40)), now + 600, now),
    garbage: 'not-a-jwt',
  };
}

/** A user whose session was revoked (logged out): the access token is still unexpired. */
export async function revokedSessionUser(db: Database): Promise<TestUser> {
  const admin = await createAdmin(db);
  await revokeSession(db, { sessionId: admin.sessionId });
  return admin;
}

/** The authenticator app's 6-digit code for `secret` (base32) at `at`. */
export const totpCodeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at.getTime() });

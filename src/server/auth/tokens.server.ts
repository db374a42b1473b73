/**
 * Access tokens (jose, HS256, short-lived) and opaque refresh tokens.
 * Only the SHA-256 of a refresh token is ever stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { readEnv } from '../env.server';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
const ISSUER = 'praxis-admin';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

let processSecret: Uint8Array | undefined;

/**
 * JWT_SECRET is required in production (env.server.ts fails fast there).
 * Elsewhere an unset secret becomes a random one per process: sessions end
 * with the process, and no known default can ever sign a token.
 */
export function jwtKey(): Uint8Array {
  const env = readEnv();
  if (env.JWT_SECRET) return new TextEncoder().encode(env.JWT_SECRET);
  processSecret ??= randomBytes(32);
  return processSecret;
}

export async function signAccessToken(claims: AccessClaims, now: Date = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = new Date((issuedAt + ACCESS_TOKEN_TTL_SECONDS) * 1000);
  const token = await new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(jwtKey());
  return { token, expiresAt };
}

/** The claims of a valid token, or null for anything else (expired, tampered, alg none, other key). */
export async function verifyAccessToken(token: string): Promise<(AccessClaims & { expiresAt: Date }) | null> {
  try {
    const { payload } = await jwtVerify(token, jwtKey(), { algorithms: ['HS256'], issuer: ISSUER });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
    return { userId: payload.sub, sessionId: payload.sid, expiresAt: new Date(payload.exp * 1000) };
  } catch {
    return null;
  }
}

/** 256 random bits, URL-safe. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

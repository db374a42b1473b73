/**
 * Access tokens (jose, HS256, short-lived) and opaque refresh tokens.
 * Only the SHA-256 of a refresh token is ever stored.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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

function refreshMac(sessionId: string, nonce: string): string {
  return createHmac('sha256', jwtKey()).update(`refresh-token:${sessionId}.${nonce}`).digest('base64url');
}

/**
 * `<session id>.<256 random bits>.<HMAC of both>`, URL-safe. The MAC lets
 * the server recognise a token it issued for a session even after it was
 * rotated away, so a replayed old token can revoke its session (reuse
 * detection, OAuth 2.0 Security BCP) while a forged one cannot.
 */
export function newRefreshToken(sessionId: string): string {
  const nonce = randomBytes(32).toString('base64url');
  return `${sessionId}.${nonce}.${refreshMac(sessionId, nonce)}`;
}

/**
 * The token that replaces `current` at its rotation: derived from it with
 * the server key, so two refreshes racing with the same token compute the
 * same successor (the loser can be handed the winner's token without any
 * token being stored in clear). Unpredictable without the key, and the
 * chain starts from 256 random bits at sign-in.
 */
export function nextRefreshToken(sessionId: string, current: string): string {
  const nonce = createHmac('sha256', jwtKey()).update(`refresh-rotation:${current}`).digest('base64url');
  return `${sessionId}.${nonce}.${refreshMac(sessionId, nonce)}`;
}

/** The session a refresh token was issued for, when the server signed it; null for anything else. */
export function refreshTokenSessionId(token: string): string | null {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const expected = Buffer.from(refreshMac(match[1]!, match[2]!));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? match[1]! : null;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

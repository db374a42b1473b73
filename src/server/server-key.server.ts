/**
 * The server key of every keyed hash (HMAC) the rate limits keep instead of
 * client addresses and emails: a plain SHA-256 of an IPv4 address or of a
 * guessable email is reversed by enumeration, an HMAC with a server secret
 * is not. Production always has JWT_SECRET (env.server.ts); locally the
 * setup word or a fixed development value serves.
 */
import { createHmac } from 'node:crypto';
import { readEnv, type Env } from './env.server';

export function serverHashKey(env: Pick<Env, 'JWT_SECRET' | 'ADMIN_SETUP_SECRET'> = readEnv()): string {
  return env.JWT_SECRET ?? env.ADMIN_SETUP_SECRET ?? 'local-development-only';
}

/** Hex HMAC-SHA-256 of `value`, separated by `purpose` so one value never gives the same key in two tables. */
export function keyedHash(purpose: string, value: string, key: string = serverHashKey()): string {
  return createHmac('sha256', `${purpose}:${key}`).update(value).digest('hex');
}

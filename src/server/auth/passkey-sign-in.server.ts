/**
 * The first step of a passkey sign-in (/auth, "Mit Passkey anmelden") and
 * the relying party every ceremony names (docs/decisions/037-passkeys-sessions-guessing.md).
 *
 * The sign-in options are WebAuthn's PublicKeyCredentialRequestOptionsJSON
 * with a fresh random challenge: the object @simplewebauthn/server's
 * `generateAuthenticationOptions` returns for these arguments (its test
 * compares the two). They are built here because the library, with its
 * certificate and CBOR parsers, is needed only to check an answer
 * (passkeys.server.ts loads it then): the sign-in page's first request no
 * longer pays for it at a cold start (docs/decisions/023-functions-pre-bundled.md).
 */
import { randomBytes } from 'node:crypto';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Database } from '../../../db/client';
import { practice } from '../../lib/practice';
import { readEnv } from '../env.server';
import { previewDeployOrigin } from '../netlify-deploy.server';
import { clientHit, takeRateLimit, type RateLimit } from '../rate-limit.server';
import { issueChallenge } from './challenges.server';
import { allowedOrigins } from './origin.server';

/** How long a ceremony may take, from its options to its answer. */
export const PASSKEY_CHALLENGE_TTL_SECONDS = 5 * 60;
/** Sign-in options per client: each one stores a challenge, so a script cannot fill the table. */
export const PASSKEY_OPTIONS_PER_CLIENT: RateLimit = { bucket: 'passkey-options-client', max: 30, windowSeconds: 15 * 60 };
/** The challenge's random bytes, as many as the library's own challenges have. */
const CHALLENGE_BYTES = 32;

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** The relying party of this request: the site's host and its origins, or a deploy preview's own. */
export function relyingParty(): RelyingParty {
  const name = practice.name.de;
  const preview = previewDeployOrigin();
  if (preview) return { id: new URL(preview).hostname, name, origins: [preview] };
  const site = new URL(readEnv().SITE_URL);
  const origins = [...allowedOrigins()].filter((origin) => new URL(origin).hostname === site.hostname);
  return { id: site.hostname, name, origins: origins.length > 0 ? origins : [site.origin] };
}

/**
 * Sign-in options for relying party `rpId`: user verification required (the
 * passkey is both factors), no allowCredentials (the browser offers the
 * passkeys it holds for this site, so no email is asked for or revealed).
 */
export function signInOptions(rpId: string, challenge: Uint8Array = randomBytes(CHALLENGE_BYTES)): PublicKeyCredentialRequestOptionsJSON {
  return {
    rpId,
    challenge: Buffer.from(challenge).toString('base64url'),
    timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
    userVerification: 'required',
  };
}

/** The options of a passkey sign-in and the id of their challenge (for the browser's cookie). */
export async function authenticationOptions(
  db: Database,
  ip: string,
  now: Date = new Date(),
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; challengeId: string }> {
  await takeRateLimit(db, [clientHit(PASSKEY_OPTIONS_PER_CLIENT, ip)], now, 'Zu viele Anmeldeversuche von diesem Anschluss. Bitte versuchen Sie es später erneut.');
  const options = signInOptions(relyingParty().id);
  const { id } = await issueChallenge(db, { purpose: 'passkey-login', ttlSeconds: PASSKEY_CHALLENGE_TTL_SECONDS, challenge: options.challenge }, now);
  return { options, challengeId: id };
}

/**
 * Sealing a value at rest with AES-256-GCM (node:crypto) under the key ring
 * of DATA_ENCRYPTION_KEY (appointment-contact/keys.server.ts): appointment
 * contacts, waitlist entries, queued emails and patient requests all use
 * this one form (docs/architecture.md, Privacy).
 *
 * Sealed form: base64url(iv[12] ‖ tag[16] ‖ ciphertext), with the id of the
 * key that sealed it kept beside it. The associated data names the row the
 * value belongs to, so a sealed value copied onto another row does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyRing } from './appointment-contact/keys.server';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealed {
  keyId: string;
  sealed: string;
}

export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealError';
  }
}

/** Seals `value` (as JSON) for the row named by `associatedData`, under the ring's current key. */
export function sealJson(value: unknown, associatedData: string, keys: KeyRing): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = Buffer.concat([cipher.update(Buffer.from(JSON.stringify(value), 'utf8')), cipher.final()]);
  return { keyId: keys.current.id, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url') };
}

/** Opens a value sealed by sealJson for the same row; SealError when no configured key opens it or it was altered. */
export function openJson<T>(value: Sealed, associatedData: string, keys: KeyRing): T {
  const dataKey = keys.byId.get(value.keyId);
  if (!dataKey) throw new SealError('sealed with a key that is not configured');
  const raw = Buffer.from(value.sealed, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) throw new SealError('sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', dataKey.key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealError('sealed value does not authenticate');
  }
  return JSON.parse(plain.toString('utf8')) as T;
}

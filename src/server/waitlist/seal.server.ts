/**
 * Sealing a waitlist entry (docs/decisions/032-waitlist.md): the same
 * AES-256-GCM form and key ring as the appointment contact
 * (src/server/appointment-contact/), base64url(iv ‖ tag ‖ ciphertext) with
 * the sealing key's id beside it; the entry id is the associated data, so a
 * value copied onto another entry does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Lang } from '../../i18n/languages';
import type { KeyRing } from '../appointment-contact/keys.server';
import { SealError, type Sealed } from '../appointment-contact/seal.server';

/** What the patient entered, and the entry's own link token (only its hash is in clear). */
export interface EntrySecret {
  email: string;
  firstName: string;
  lastName: string;
  language: Lang;
  /** yyyy-MM-dd; null for an entry of a booking (its contact has the details). */
  birthDate: string | null;
  /** Optional without a booking. */
  phone: string | null;
  /** The entry's link token ("Von der Liste nehmen"). */
  token: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function sealEntry(secret: EntrySecret, entryId: string, keys: KeyRing): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(`waitlist:${entryId}`, 'utf8'));
  const plain = Buffer.from(JSON.stringify(secret), 'utf8');
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { keyId: keys.current.id, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url') };
}

export function openEntry(value: Sealed, entryId: string, keys: KeyRing): EntrySecret {
  const dataKey = keys.byId.get(value.keyId);
  if (!dataKey) throw new SealError('sealed with a key that is not configured');
  const raw = Buffer.from(value.sealed, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) throw new SealError('sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', dataKey.key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(`waitlist:${entryId}`, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')) as EntrySecret;
  } catch {
    throw new SealError('sealed value does not authenticate');
  }
}

/** Opens an entry or answers null (no key, a removed key, a damaged value); logged by kind only. */
export function openEntryOrNull(value: Sealed, entryId: string, keys: KeyRing | null): EntrySecret | null {
  try {
    if (!keys) throw new SealError('no key configured');
    return openEntry(value, entryId, keys);
  } catch (error) {
    console.warn(`waitlist entry not opened: ${(error as Error)?.name ?? 'unknown'}`);
    return null;
  }
}

/**
 * Sealing an appointment contact with AES-256-GCM (node:crypto).
 *
 * Sealed form: base64url(iv[12] ‖ tag[16] ‖ ciphertext), with the id of the
 * key that sealed it kept beside it. The booking id is the associated data,
 * so a sealed value copied onto another booking's row does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Lang } from '../../i18n/i18n';
import type { KeyRing } from './keys.server';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Everything the emails about one appointment need that the patient entered or received. */
export interface ContactSecret {
  /** Empty for a phone booking without an email address: nobody is emailed, staff call. */
  email: string;
  firstName: string;
  /** Empty for a contact migrated from an earlier reminder (docs/decisions/009), which kept no last name. */
  lastName: string;
  language: Lang;
  /** The cancellation token (only its hash is on the booking); empty for a phone booking without email (no link). */
  token: string;
  /** yyyy-mm-dd; empty when not given (optional for phone bookings) or sealed before it was kept. */
  birthDate: string;
  /** Empty when sealed before it was kept. */
  phone: string;
}

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

export function seal(secret: ContactSecret, bookingId: string, keys: KeyRing): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(bookingId, 'utf8'));
  const plain = Buffer.from(
    JSON.stringify({
      e: secret.email,
      f: secret.firstName,
      n: secret.lastName,
      l: secret.language,
      t: secret.token,
      b: secret.birthDate,
      p: secret.phone,
    }),
    'utf8',
  );
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { keyId: keys.current.id, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url') };
}

export function open(value: Sealed, bookingId: string, keys: KeyRing): ContactSecret {
  const dataKey = keys.byId.get(value.keyId);
  if (!dataKey) throw new SealError('sealed with a key that is not configured');
  const raw = Buffer.from(value.sealed, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) throw new SealError('sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', dataKey.key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(bookingId, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealError('sealed value does not authenticate');
  }
  // An earlier reminder (migrated, docs/decisions/021) has no `n`: its patient gets a greeting by first name only.
  // A contact sealed before staff saw patient details (details 1, docs/decisions/025) has no `b` and `p`.
  const data = JSON.parse(plain.toString('utf8')) as { e: string; f: string; n?: string; l: Lang; t: string; b?: string; p?: string };
  return {
    email: data.e,
    firstName: data.f,
    lastName: data.n ?? '',
    language: data.l,
    token: data.t,
    birthDate: data.b ?? '',
    phone: data.p ?? '',
  };
}

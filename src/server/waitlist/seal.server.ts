/**
 * Sealing a waitlist entry (docs/decisions/032-waitlist.md): the same
 * AES-256-GCM form and key ring as the appointment contact
 * (src/server/appointment-contact/), base64url(iv ‖ tag ‖ ciphertext) with
 * the sealing key's id beside it; the entry id is the associated data, so a
 * value copied onto another entry does not open.
 */
import type { Lang } from '../../i18n/languages';
import type { KeyRing } from '../appointment-contact/keys.server';
import { openJson, sealJson, SealError, type Sealed } from '../sealing.server';

/** What the patient entered, and the entry's own link token (only its hash is in clear). */
export interface EntrySecret {
  email: string;
  firstName: string;
  lastName: string;
  language: Lang;
  /** yyyy-MM-dd; null for an entry of a booking (its contact has the details). */
  birthDate: string | null;
  /** Required without a booking (entries made before it was asked for may have none); the booking's for an entry of a booking, if any. */
  phone: string | null;
  /** The entry's link token ("Von der Liste nehmen"). */
  token: string;
  /** Offers go by SMS too (docs/decisions/043-sms-second-channel.md); absent in entries made before it was asked. */
  sms?: boolean;
}

export function sealEntry(secret: EntrySecret, entryId: string, keys: KeyRing): Sealed {
  return sealJson(secret, `waitlist:${entryId}`, keys);
}

export function openEntry(value: Sealed, entryId: string, keys: KeyRing): EntrySecret {
  return openJson<EntrySecret>(value, `waitlist:${entryId}`, keys);
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

/**
 * Sealing an appointment contact (src/server/sealing.server.ts: AES-256-GCM,
 * base64url(iv ‖ tag ‖ ciphertext), the sealing key's id beside it). The
 * booking id is the associated data, so a sealed value copied onto another
 * booking's row does not open.
 */
import type { Lang } from '../../i18n/languages';
import { openJson, sealJson, SealError, type Sealed } from '../sealing.server';
import type { KeyRing } from './keys.server';

export { SealError, type Sealed };

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
  /** E.164 since numbers are normalised (docs/decisions/043); as typed before; empty when sealed before it was kept. */
  phone: string;
  /** The patient agreed to SMS at this (mobile) number (docs/decisions/043-sms-second-channel.md); false (absent) when not asked. */
  sms?: boolean;
}

export function seal(secret: ContactSecret, bookingId: string, keys: KeyRing): Sealed {
  const compact = {
    e: secret.email,
    f: secret.firstName,
    n: secret.lastName,
    l: secret.language,
    t: secret.token,
    b: secret.birthDate,
    p: secret.phone,
    ...(secret.sms ? { s: true } : {}),
  };
  return sealJson(compact, bookingId, keys);
}

export function open(value: Sealed, bookingId: string, keys: KeyRing): ContactSecret {
  // An earlier reminder (migrated, docs/decisions/021) has no `n`: its patient gets a greeting by first name only.
  // A contact sealed before staff saw patient details (details 1, docs/decisions/025) has no `b` and `p`.
  const data = openJson<{ e: string; f: string; n?: string; l: Lang; t: string; b?: string; p?: string; s?: boolean }>(value, bookingId, keys);
  return {
    email: data.e,
    firstName: data.f,
    lastName: data.n ?? '',
    language: data.l,
    token: data.t,
    birthDate: data.b ?? '',
    phone: data.p ?? '',
    ...(data.s === true ? { sms: true } : {}),
  };
}

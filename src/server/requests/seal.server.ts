/**
 * Sealing a patient request (docs/decisions/036-patient-requests.md): what
 * the patient entered, and the practice's message to them, each sealed with
 * the appointment-contact key ring (src/server/sealing.server.ts), the
 * request id as associated data, so a value copied onto another request
 * does not open.
 */
import type { Lang } from '../../i18n/languages';
import type { KeyRing } from '../appointment-contact/keys.server';
import { openJson, sealJson, type Sealed } from '../sealing.server';
import type { PatientRequest } from '../../lib/request-schema';

/** What a request's sealed value holds: the patient's entries, whichever kind. */
export interface RequestDetails {
  first_name: string;
  last_name: string;
  /** yyyy-MM-dd */
  birth_date: string;
  email: string;
  phone: string | null;
  language: Lang;
  note: string | null;
  /** The status link's token (only its SHA-256 is on the row), for the status emails' link; never shown to staff. */
  token: string;
  /** The patient agreed to SMS at `phone` (a mobile number): the status email's fallback (docs/decisions/043-sms-second-channel.md). */
  sms?: boolean;
  /** Repeat prescription. */
  insurance?: 'statutory' | 'private';
  delivery?: 'card' | 'pickup';
  card_read_this_quarter?: boolean;
  medications?: Array<{ name: string; strength: string | null; pack: string | null }>;
  /** Referral. */
  specialty?: string;
  reason?: string;
  /** Call-back. */
  callback_date?: string;
  daypart?: 'morning' | 'afternoon';
  topic?: string;
}

/** The details of a parsed request (the kind stays in clear on the row). */
export function detailsOf(request: PatientRequest, token: string): RequestDetails {
  const common: RequestDetails = {
    token,
    first_name: request.first_name,
    last_name: request.last_name,
    birth_date: request.birth_date,
    email: request.email,
    phone: request.phone ?? null,
    language: request.language,
    note: request.note ?? null,
    // Checked to be a mobile number by submitRequest (create.server.ts).
    ...(request.sms && request.phone ? { sms: true } : {}),
  };
  switch (request.kind) {
    case 'prescription':
      return {
        ...common,
        insurance: request.insurance,
        delivery: request.delivery,
        card_read_this_quarter: request.delivery === 'card' ? request.card_read_this_quarter === true : undefined,
        medications: request.medications.map((m) => ({ name: m.name, strength: m.strength ?? null, pack: m.pack ?? null })),
      };
    case 'referral':
      return { ...common, specialty: request.specialty, reason: request.reason };
    case 'callback':
      return { ...common, callback_date: request.callback_date, daypart: request.daypart, topic: request.topic };
  }
}

const detailsData = (id: string) => `request:${id}`;
const messageData = (id: string) => `request-message:${id}`;

export function sealDetails(details: RequestDetails, requestId: string, keys: KeyRing): Sealed {
  return sealJson(details, detailsData(requestId), keys);
}

export function openDetails(value: Sealed, requestId: string, keys: KeyRing): RequestDetails {
  return openJson<RequestDetails>(value, detailsData(requestId), keys);
}

export function sealMessage(message: string, requestId: string, keys: KeyRing): Sealed {
  return sealJson({ m: message }, messageData(requestId), keys);
}

export function openMessage(value: Sealed, requestId: string, keys: KeyRing): string {
  return openJson<{ m: string }>(value, messageData(requestId), keys).m;
}

/** A sealed pair from a row's two columns, or null when either is empty (deleted, or never written). */
export function sealedOf(keyId: string | null, sealed: string | null): Sealed | null {
  return keyId && sealed ? { keyId, sealed } : null;
}

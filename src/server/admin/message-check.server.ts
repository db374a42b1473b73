/**
 * Staff messages that name what email should not carry
 * (docs/decisions/041-staff-messages-devices-printouts.md): a message to a
 * patient that names one of the request's medications, its reason,
 * specialty or topic, or repeats the appointment type's name, is sent only
 * when staff confirm it (`confirm: true`); otherwise 409
 * `message-names-details` with the kinds found, never the words. Neither the
 * message nor what it matched is logged or audited.
 */
import { AppError } from '../../lib/errors';
import { namedKinds, type DetailTerm } from '../../lib/message-details';

/** Throws 409 `message-names-details` (`names`: the kinds found) unless there is no message, it names nothing, or staff confirmed it. */
export function refuseUnconfirmedDetails(message: string | null | undefined, terms: readonly DetailTerm[], confirmed: boolean | undefined): void {
  if (!message || confirmed === true) return;
  const names = namedKinds(message, terms);
  if (names.length === 0) return;
  throw new AppError(
    'message-names-details',
    'The message names details of the request or the appointment, and email is not confidential. Send it with confirm: true, or change it.',
    undefined,
    { extra: { names } },
  );
}

/** A booking's type, in both languages: what a booking message should not repeat. */
export function typeTerms(type: { type_name: string; type_name_en?: string | null }): DetailTerm[] {
  return [
    { kind: 'type', text: type.type_name },
    ...(type.type_name_en ? [{ kind: 'type' as const, text: type.type_name_en }] : []),
  ];
}

/** A request's medications (by name), reason, specialty and topic. */
export function requestTerms(details: {
  medications?: Array<{ name: string }>;
  reason?: string;
  specialty?: string;
  topic?: string;
}): DetailTerm[] {
  return [
    ...(details.medications ?? []).map((m) => ({ kind: 'medication' as const, text: m.name })),
    ...(details.reason ? [{ kind: 'reason' as const, text: details.reason }] : []),
    ...(details.specialty ? [{ kind: 'specialty' as const, text: details.specialty }] : []),
    ...(details.topic ? [{ kind: 'topic' as const, text: details.topic }] : []),
  ];
}

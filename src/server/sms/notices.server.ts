/**
 * Which notice goes by SMS, and with which link (docs/decisions/043-sms-second-channel.md).
 * Only for a patient who agreed to SMS at a mobile number (the consent is
 * sealed with the contact or the waitlist entry), and only while SMS is
 * offered. The order of reaching a patient: email; where it does not
 * arrive, the SMS it carries (`fallback`); a patient without an email
 * address gets the SMS directly (`direct`); where neither can go, the call
 * list. Two notices go by SMS by the patient's choice: the reminder (instead
 * of the email) and a waitlist offer (beside it: the first to answer gets
 * the time, and an email read at night is too late).
 *
 * Each plan's link leads where the matching email's does: the booking's
 * page (its link token), the offer's, the request's status page; it lasts
 * until the end of the appointment's day (or the offer's time, or the
 * request's retention) and goes with what it points at.
 */
import { addDaysToDate, berlinInstant } from '../../lib/berlin-time';
import { localizedPath, type Lang } from '../../i18n/languages';
import type { ContactSecret } from '../appointment-contact/seal.server';
import type { SmsPlan } from './queue.server';
import { smsOffered } from './sms.server';
import type { LinkTarget } from './short-links.server';

/** The contact's number when SMS may go to it now, else null. */
export function smsNumberOf(contact: Pick<ContactSecret, 'phone' | 'sms'> | null | undefined): string | null {
  if (!contact?.sms || !contact.phone?.startsWith('+')) return null;
  return smsOffered() ? contact.phone : null;
}

/** The end of an appointment's Berlin day: what its links last until. */
export function endOfDay(date: string): Date {
  return berlinInstant(addDaysToDate(date, 1), '00:00') ?? new Date(`${addDaysToDate(date, 1)}T00:00:00Z`);
}

/** The booking's page (cancel or move), the path the email's link has. */
export function bookingPage(token: string, lang: Lang, bookingId: string, date: string): LinkTarget {
  return { path: `${localizedPath('/termin/absagen', lang)}?token=${encodeURIComponent(token)}`, bookingId, expiresAt: endOfDay(date) };
}

export type PatientNoticeKind = 'cancelled-by-practice' | 'moved-by-practice' | 'cancelled' | 'moved';

export interface NoticeSmsInput {
  kind: PatientNoticeKind;
  contact: ContactSecret;
  bookingId: string;
  date: string;
  time: string;
  old?: { date: string; time: string };
  message?: string;
}

/** The SMS of a change to a booking (the practice's cancel, move or block; the patient's own as a fallback), or null. */
export function noticeSms(input: NoticeSmsInput): SmsPlan | null {
  const to = smsNumberOf(input.contact);
  if (!to) return null;
  const { contact, bookingId, date, time } = input;
  const language = contact.language;
  const base = { to, language, kind: `notice-${input.kind}`, bookingId };
  const link = contact.token ? bookingPage(contact.token, language, bookingId, date) : undefined;
  switch (input.kind) {
    case 'cancelled-by-practice':
      return { ...base, notice: { kind: 'cancelled-by-practice', date, time, ...(input.message ? { message: input.message } : {}) } };
    case 'cancelled':
      return { ...base, notice: { kind: 'cancelled', date, time } };
    case 'moved-by-practice':
      return {
        ...base,
        notice: { kind: 'moved-by-practice', date, time, old: input.old ?? { date, time }, link: Boolean(link), ...(input.message ? { message: input.message } : {}) },
        ...(link ? { link } : {}),
      };
    case 'moved':
      return link ? { ...base, notice: { kind: 'moved', date, time }, link } : { ...base, notice: { kind: 'confirmation', date, time, link: false } };
  }
}

/** A booking's confirmation by SMS: a phone booking without email (no link), or an online one's email fallback (its page). */
export function confirmationSms(input: { contact: ContactSecret; bookingId: string; date: string; time: string }): SmsPlan | null {
  const to = smsNumberOf(input.contact);
  if (!to) return null;
  const link = input.contact.token ? bookingPage(input.contact.token, input.contact.language, input.bookingId, input.date) : undefined;
  return {
    to,
    language: input.contact.language,
    kind: 'booking-confirmation',
    bookingId: input.bookingId,
    notice: { kind: 'confirmation', date: input.date, time: input.time, link: Boolean(link) },
    ...(link ? { link } : {}),
  };
}

/** The reminder by SMS, for a patient who chose SMS. */
export function reminderSms(input: { contact: ContactSecret; bookingId: string; date: string; time: string }): SmsPlan | null {
  const to = smsNumberOf(input.contact);
  if (!to) return null;
  const link = input.contact.token ? bookingPage(input.contact.token, input.contact.language, input.bookingId, input.date) : undefined;
  return {
    to,
    language: input.contact.language,
    kind: 'reminder',
    bookingId: input.bookingId,
    notice: { kind: 'reminder', date: input.date, time: input.time, link: Boolean(link) },
    ...(link ? { link } : {}),
  };
}

/** A waitlist offer by SMS: its time and the offer's page (the offer email's link). */
export function offerSms(input: { phone: string | null; sms?: boolean; language: Lang; offerId: string; token: string; date: string; time: string }): SmsPlan | null {
  const to = smsNumberOf({ phone: input.phone ?? '', sms: input.sms });
  if (!to) return null;
  return {
    to,
    language: input.language,
    kind: 'waitlist-offer',
    notice: { kind: 'offer', date: input.date, time: input.time },
    link: {
      path: `${localizedPath('/termin/warteliste', input.language)}?offer=${encodeURIComponent(input.token)}`,
      offerId: input.offerId,
      expiresAt: berlinInstant(input.date, input.time) ?? endOfDay(input.date),
    },
  };
}

/** A request's status (done or declined) by SMS, as its email's fallback: the reference and the status page, never what was asked. */
export function requestStatusSms(input: {
  phone: string | null | undefined;
  sms?: boolean;
  language: Lang;
  requestId: string;
  reference: string;
  status: 'done' | 'declined';
  token: string;
  expiresAt: Date;
}): SmsPlan | null {
  const to = smsNumberOf({ phone: input.phone ?? '', sms: input.sms });
  if (!to) return null;
  return {
    to,
    language: input.language,
    kind: `request-${input.status}`,
    notice: { kind: input.status === 'done' ? 'request-done' : 'request-declined', reference: input.reference },
    link: { path: `${localizedPath('/anfrage/status', input.language)}?token=${encodeURIComponent(input.token)}`, requestId: input.requestId, expiresAt: input.expiresAt },
  };
}

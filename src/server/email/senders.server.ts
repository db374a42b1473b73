/**
 * The emails a change promises, as outbox entries (queue.server.ts,
 * docs/decisions/035-email-outbox.md): each function builds the message
 * (messages/) with this process's settings and names its kind, audience and
 * booking. The use case writes them in its own transaction; delivery
 * happens after the answer. So an answer never waits for the mail service
 * and a change never stands without the emails it promised.
 */
import { useTranslations, type Lang } from '../../i18n/i18n';
import { readEnv, variables } from '../env.server';
import { createEmailSender } from './email.server';
import {
  cancellationNotice,
  patientConfirmation,
  practiceNotification,
  practiceRescheduleNotification,
  type BookingEmailInput,
  type CancellationNoticeInput,
  type PracticeNoticeDetails,
  type RescheduleEmailInput,
} from './messages/booking.server';
import { patientNotice, type PatientNoticeInput } from './messages/patient-notice.server';
import type { QueuedEmail } from './queue.server';
import { noticeSms } from '../sms/notices.server';
import type { SmsPlan } from '../sms/queue.server';

/** The answer's `email` field: `{ success, patientEmailError?, practiceEmailError?, error? }` */
export interface EmailOutcome {
  success: boolean;
  patientEmailError?: string;
  practiceEmailError?: string;
  error?: string;
}

/** Whether this process can send email (Postmark configured, or the local outbox outside production). */
export function emailConfigured(): boolean {
  try {
    createEmailSender();
    return true;
  } catch {
    return false;
  }
}

/**
 * What a booking's answer says of its emails: queued means on its way
 * (`success`); while email is not configured they wait in the outbox, and
 * the answer says so.
 */
export function queuedOutcome(language: Lang): EmailOutcome {
  return emailConfigured() ? { success: true } : { success: false, error: useTranslations(language)('email.errors.notConfigured') };
}

/**
 * `PRACTICE_NOTICE_DETAILS=full` puts the patient's details back into the
 * practice's notification; anything else (unset, a typo) keeps them out:
 * a mistake never sends more than intended.
 */
export function practiceNoticeDetails(source: Readonly<Record<string, string | undefined>> = variables()): PracticeNoticeDetails {
  const value = source.PRACTICE_NOTICE_DETAILS?.trim().toLowerCase();
  if (value && value !== 'full' && value !== 'minimal') {
    console.warn('PRACTICE_NOTICE_DETAILS is neither "full" nor "minimal": practice emails go without patient data');
  }
  return value === 'full' ? 'full' : 'minimal';
}

/** The patient's confirmation (with the link and the .ics). */
export function bookingConfirmationEmail(input: BookingEmailInput): QueuedEmail {
  return { message: patientConfirmation(input, readEnv().SITE_URL), kind: 'booking-confirmation', audience: 'patient', bookingId: input.bookingId };
}

/** Both emails of an online booking: the patient's confirmation and the practice's notification. */
export function bookingEmails(input: BookingEmailInput): QueuedEmail[] {
  const env = readEnv();
  return [
    bookingConfirmationEmail(input),
    {
      message: practiceNotification(input, env.PRACTICE_EMAIL, { siteUrl: env.SITE_URL, details: practiceNoticeDetails() }),
      kind: 'practice-booking',
      audience: 'practice',
      bookingId: input.bookingId,
    },
  ];
}

/** The practice's notice of a patient's move. */
export function practiceRescheduleEmail(input: RescheduleEmailInput & { bookingId: string }): QueuedEmail {
  return { message: practiceRescheduleNotification(input, readEnv().PRACTICE_EMAIL), kind: 'practice-moved', audience: 'practice', bookingId: input.bookingId };
}

/** The practice's notice of a patient's cancellation. */
export function practiceCancellationEmail(input: CancellationNoticeInput & { bookingId: string }): QueuedEmail {
  return { message: cancellationNotice(input, readEnv().PRACTICE_EMAIL), kind: 'practice-cancelled', audience: 'practice', bookingId: input.bookingId };
}

/**
 * A patient's notice of a change (cancelled or moved, by the practice or
 * themselves), carrying the same notice as an SMS for when it does not
 * arrive (a patient who agreed to SMS); null without an email address
 * (patientNoticeSms, or staff call).
 */
export function patientNoticeEmail(input: PatientNoticeInput): QueuedEmail | null {
  if (!input.contact.email) return null;
  return {
    message: patientNotice(input, readEnv().SITE_URL),
    kind: `notice-${input.kind}`,
    audience: 'patient',
    bookingId: input.bookingId,
    sms: noticeSms(input),
  };
}

/** The notice by SMS for a patient without an email address who agreed to SMS (docs/decisions/043); null otherwise. */
export function patientNoticeSms(input: PatientNoticeInput): SmsPlan | null {
  return input.contact.email ? null : noticeSms(input);
}

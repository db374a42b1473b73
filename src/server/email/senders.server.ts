/**
 * The senders: each builds a message (messages/) and sends it through the
 * configured sender (email.server.ts). Emails never undo what they report:
 * a booking, move or cancellation stands whatever happens to its email;
 * failures are logged by kind only (the error's name), never with an
 * address or message, and reported in the response (the `email` field, docs/architecture.md, HTTP API).
 */
import { useTranslations } from '../../i18n/i18n';
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
import type { EmailSender } from './port.server';

/** The answer's `email` field: `{ success, patientEmailError?, practiceEmailError?, error? }` */
export interface EmailOutcome {
  success: boolean;
  patientEmailError?: string;
  practiceEmailError?: string;
  error?: string;
}

/**
 * The configured sender and settings, or null when email is not configured
 * (logged by kind only, under `what`).
 */
export function configuredEmail(what: string, sender?: EmailSender): { env: ReturnType<typeof readEnv>; sender: EmailSender } | null {
  try {
    const env = readEnv();
    return { env, sender: sender ?? createEmailSender(env) };
  } catch (error) {
    console.warn(`${what} not sent: email is not configured (${(error as Error).name})`);
    return null;
  }
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

/**
 * Sends both emails of a booking side by side: the patient's confirmation
 * and the practice's notification. A failure is reported per email.
 */
export async function sendBookingEmails(input: BookingEmailInput, sender?: EmailSender): Promise<EmailOutcome> {
  const t = useTranslations(input.language);
  const email = configuredEmail('booking emails', sender);
  if (!email) return { success: false, error: t('email.errors.notConfigured') };
  const [patient, practiceMail] = await Promise.allSettled([
    email.sender.send(patientConfirmation(input, email.env.SITE_URL)),
    email.sender.send(practiceNotification(input, email.env.PRACTICE_EMAIL, { siteUrl: email.env.SITE_URL, details: practiceNoticeDetails() })),
  ]);
  const outcome: EmailOutcome = { success: patient.status === 'fulfilled' && practiceMail.status === 'fulfilled' };
  if (patient.status === 'rejected') {
    console.warn(`booking confirmation email failed: ${(patient.reason as Error)?.name ?? 'unknown'}`);
    outcome.patientEmailError = t('email.errors.patientFailed');
  }
  if (practiceMail.status === 'rejected') {
    console.warn(`practice notification email failed: ${(practiceMail.reason as Error)?.name ?? 'unknown'}`);
    outcome.practiceEmailError = t('email.errors.practiceFailed');
  }
  return outcome;
}

/**
 * A phone booking with an email address (docs/decisions/025): the patient
 * gets the same confirmation, .ics and link as an online booking, in the
 * chosen language; the practice, which took the call, gets nothing. False
 * when no email went out (staff then tell the patient by phone).
 */
export async function sendPhoneBookingConfirmation(input: BookingEmailInput, sender?: EmailSender): Promise<boolean> {
  if (!input.patient.email) return false;
  const email = configuredEmail('phone booking confirmation', sender);
  if (!email) return false;
  try {
    await email.sender.send(patientConfirmation(input, email.env.SITE_URL));
    return true;
  } catch (error) {
    console.warn(`phone booking confirmation email failed: ${(error as Error)?.name ?? 'unknown'}`);
    return false;
  }
}

/** Sends the practice's notice of a move; like the booking emails, a failure is reported, never undoes the move. */
export async function sendRescheduleEmail(input: RescheduleEmailInput, sender?: EmailSender): Promise<EmailOutcome> {
  const t = useTranslations(input.language);
  const email = configuredEmail('reschedule email', sender);
  if (!email) return { success: false, error: t('email.errors.notConfigured') };
  try {
    await email.sender.send(practiceRescheduleNotification(input, email.env.PRACTICE_EMAIL));
    return { success: true };
  } catch (error) {
    console.warn(`practice reschedule email failed: ${(error as Error)?.name ?? 'unknown'}`);
    return { success: false, practiceEmailError: t('email.errors.practiceFailed') };
  }
}

/**
 * Emails the practice that a booking was cancelled. Never throws: the
 * cancellation stands whatever happens to the notice; a failure is logged
 * by kind only. Returns whether the notice was sent.
 */
export async function sendCancellationNotice(input: CancellationNoticeInput, sender?: EmailSender): Promise<boolean> {
  const email = configuredEmail('cancellation notice', sender);
  if (!email) return false;
  try {
    await email.sender.send(cancellationNotice(input, email.env.PRACTICE_EMAIL));
    return true;
  } catch (error) {
    console.warn(`cancellation notice email failed: ${(error as Error)?.name ?? 'unknown'}`);
    return false;
  }
}

/**
 * Sends a patient notice; true when it went out. Never throws: the change
 * stands whatever happens to the email, and a failure is logged by kind only.
 */
export async function sendPatientNotice(input: PatientNoticeInput, sender?: EmailSender): Promise<boolean> {
  // A phone booking without an email address: nobody to write to, staff call (docs/decisions/025).
  if (!input.contact.email) return false;
  const email = configuredEmail('patient notice', sender);
  if (!email) return false;
  try {
    await email.sender.send(patientNotice(input, email.env.SITE_URL));
    return true;
  } catch (error) {
    console.warn(`patient notice email failed: ${(error as Error)?.name ?? 'unknown'}`);
    return false;
  }
}

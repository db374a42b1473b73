/**
 * The two emails of a booking (DESIGN.md, Bookings and privacy): the
 * patient's confirmation in the booking's language with a cancellation link
 * and an .ics file, and the practice's notification: what and when, with
 * a link into the back office, and the patient's details only when the
 * practice asked for them (`PRACTICE_NOTICE_DETAILS=full`). Patient data is
 * escaped in every HTML body and never logged. Emails never undo a booking: failures are
 * reported in the response (API.md `email`).
 */
import { useTranslations, localizedPath, type Lang } from '../i18n/i18n';
import { emailDate } from '../lib/email-dates';
import { escapeHtml } from '../lib/html';
import { buildIcs, type CalendarMethod } from '../lib/ics';
import { emailSenderName, fullAddress, practice } from '../lib/practice';
import { formatPrice } from '../lib/price';
import type { AppointmentTypeRow } from '../../db/schema';
import { createEmailSender, type EmailAttachment, type EmailMessage, type EmailSender } from './email/email.server';
import { readEnv, variables } from './env.server';

export interface BookingEmailInput {
  bookingId: string;
  token: string;
  /** The booking's short reference (src/lib/booking-reference.ts). */
  reference: string;
  type: Pick<AppointmentTypeRow, 'name' | 'nameEn' | 'slotDurationMinutes'> & { priceCents?: number | null };
  date: string;
  time: string;
  patient: { first_name: string; last_name: string; birth_date: string; phone: string; email: string };
  language: Lang;
}

/** API.md: `{ success, patientEmailError?, practiceEmailError?, error? }` */
export interface EmailOutcome {
  success: boolean;
  patientEmailError?: string;
  practiceEmailError?: string;
  error?: string;
}

export function typeName(type: Pick<AppointmentTypeRow, 'name' | 'nameEn'>, lang: Lang): string {
  return lang === 'en' && type.nameEn ? type.nameEn : type.name;
}

export function cancellationUrl(siteUrl: string, token: string, lang: Lang): string {
  const url = new URL(localizedPath('/termin/absagen', lang), siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}

/** The price row of a self-pay type; nothing for a type without a price. */
function priceRow(type: { priceCents?: number | null }, lang: Lang): Array<[string, string]> {
  const t = useTranslations(lang);
  return type.priceCents === null || type.priceCents === undefined ? [] : [[t('email.label.price'), formatPrice(type.priceCents, lang)]];
}

export function rows(pairs: Array<[string, string]>): { html: string; text: string } {
  return {
    html: `<table role="presentation" cellpadding="4" style="border-collapse:collapse">${pairs
      .map(([k, v]) => `<tr><th align="left" style="padding-right:16px">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
      .join('')}</table>`,
    text: pairs.map(([k, v]) => `${k}: ${v}`).join('\n'),
  };
}

export function patientConfirmation(input: BookingEmailInput, siteUrl: string): EmailMessage {
  const lang = input.language;
  const t = useTranslations(lang);
  const type = typeName(input.type, lang);
  const longDate = emailDate(input.date, lang, 'long');
  const link = cancellationUrl(siteUrl, input.token, lang);
  const practiceName = practice.name[lang];
  const details = rows([
    [t('email.label.reference'), input.reference],
    [t('email.label.type'), type],
    [t('email.label.date'), longDate],
    [t('email.label.time'), t('email.time', { time: input.time })],
    [t('email.label.duration'), t('email.duration', { minutes: input.type.slotDurationMinutes })],
    ...priceRow(input.type, lang),
    [t('email.label.address'), `${practiceName}, ${fullAddress()}`],
  ]);
  const name = `${input.patient.first_name} ${input.patient.last_name}`;
  const greeting = t('email.patient.greeting', { name });
  const signature = t('email.patient.signature', { practice: practiceName });
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#1e293b">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(t('email.patient.intro'))}</p>
${details.html}
<p>${escapeHtml(t('email.patient.bring'))}</p>
<p>${escapeHtml(t('email.patient.calendar'))}</p>
<p>${escapeHtml(t('email.patient.cancelIntro'))}<br><a href="${escapeHtml(link)}">${escapeHtml(t('email.patient.cancelLink'))}</a></p>
<p>${escapeHtml(t('email.patient.regards'))}<br>${escapeHtml(signature)}<br>${escapeHtml(practice.phone)}</p>
</body></html>`;
  const text = [
    greeting,
    '',
    t('email.patient.intro'),
    '',
    details.text,
    '',
    t('email.patient.bring'),
    t('email.patient.calendar'),
    '',
    t('email.patient.cancelIntro'),
    link,
    '',
    t('email.patient.regards'),
    signature,
    practice.phone,
  ].join('\n');
  const ics = appointmentIcs({
    bookingId: input.bookingId,
    siteUrl,
    date: input.date,
    time: input.time,
    type: input.type,
    lang,
    link,
    sequence: 0,
    method: 'REQUEST',
    attendee: { name, email: input.patient.email },
  });
  const fromName = emailSenderName(lang);
  return {
    to: input.patient.email,
    ...(fromName ? { fromName } : {}),
    subject: t('email.patient.subject', { type, date: emailDate(input.date, lang, 'short'), time: input.time }),
    html,
    text,
    attachments: [icsAttachment(ics, lang, 'REQUEST')],
  };
}

/**
 * The calendar event of a booking: its UID is the booking's id, so every
 * later .ics (moved: METHOD:REQUEST with a higher SEQUENCE; cancelled:
 * METHOD:CANCEL) updates or removes the same entry. The practice is the
 * organizer, the patient the one attendee (docs/decisions/029).
 */
export function appointmentIcs(input: {
  bookingId: string;
  siteUrl: string;
  date: string;
  time: string;
  type: Pick<AppointmentTypeRow, 'name' | 'nameEn' | 'slotDurationMinutes'>;
  lang: Lang;
  /** The patient's link (move or cancel); none for a cancelled appointment. */
  link?: string;
  sequence: number;
  method: CalendarMethod;
  /** The patient, to whom the email goes. */
  attendee: { name?: string; email: string };
}): string {
  const t = useTranslations(input.lang);
  const practiceName = practice.name[input.lang];
  const type = typeName(input.type, input.lang);
  return buildIcs({
    uid: `${input.bookingId}@${new URL(input.siteUrl).hostname}`,
    date: input.date,
    time: input.time,
    durationMinutes: input.type.slotDurationMinutes,
    summary: t('email.calendarSummary', { type, practice: practiceName }),
    location: `${practiceName}, ${fullAddress()}`,
    description: input.link ? `${t('email.patient.cancelIntro')} ${input.link}` : t('email.calendarCancelled'),
    ...(input.link ? { url: input.link } : {}),
    stamp: new Date(),
    method: input.method,
    sequence: input.sequence,
    organizer: { name: practiceName, email: practice.email },
    attendee: input.attendee,
  });
}

/** The .ics as the email's text/calendar part; its `method` parameter names the same METHOD as the file (RFC 6047 §2.4). */
export function icsAttachment(ics: string, lang: Lang, method: CalendarMethod): EmailAttachment {
  return {
    filename: lang === 'de' ? 'termin.ics' : 'appointment.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: ics,
  };
}

/** A German email to the practice: an intro line, then the details as a table (HTML) and as lines (text). */
function practiceMessage(
  practiceEmail: string,
  subject: string,
  intro: string,
  details: { html: string; text: string },
  replyTo?: string,
): EmailMessage {
  return {
    to: practiceEmail,
    ...(replyTo ? { replyTo } : {}),
    subject,
    html: `<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;color:#1e293b"><p>${escapeHtml(intro)}</p>${details.html}</body></html>`,
    text: `${intro}\n\n${details.text}\n`,
  };
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

/** How much of the patient the practice's notification carries (docs/decisions/026). */
export type PracticeNoticeDetails = 'minimal' | 'full';

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
 * The back-office page that opens a booking. Signed out, the page sends
 * the browser to sign in and back here (src/islands/auth/auth-client.ts).
 * Carries the booking's id only, never anything of the patient.
 */
export function backOfficeBookingUrl(siteUrl: string, bookingId: string): string {
  const url = new URL('/admin/booked-slots', siteUrl);
  url.searchParams.set('buchung', bookingId);
  return url.href;
}

/**
 * The practice's notification, in German (the back office's language):
 * type, date, time, duration, reference, source and a link to the booking
 * in the back office. No patient data (DESIGN: the back office is the one
 * place staff see patients), unless the practice chose `full`: then name,
 * birth date, phone, email and language as before, and replies go to the
 * patient.
 */
export function practiceNotification(
  input: BookingEmailInput,
  practiceEmail: string,
  options: { siteUrl: string; details?: PracticeNoticeDetails },
): EmailMessage {
  const t = useTranslations('de');
  const type = typeName(input.type, 'de');
  const p = input.patient;
  const full = options.details === 'full';
  const link = backOfficeBookingUrl(options.siteUrl, input.bookingId);
  const details = rows([
    [t('email.label.reference'), input.reference],
    [t('email.label.type'), type],
    [t('email.label.date'), emailDate(input.date, 'de', 'long')],
    [t('email.label.time'), t('email.time', { time: input.time })],
    [t('email.label.duration'), t('email.duration', { minutes: input.type.slotDurationMinutes })],
    ...priceRow(input.type, 'de'),
    [t('email.label.source'), t('email.practice.sourceOnline')],
    ...(full
      ? ([
          [t('email.label.patient'), `${p.first_name} ${p.last_name}`],
          [t('email.label.birthDate'), emailDate(p.birth_date, 'de', 'short')],
          [t('email.label.phone'), p.phone],
          [t('email.label.email'), p.email],
          [t('email.label.language'), input.language === 'de' ? 'Deutsch' : 'Englisch'],
        ] as Array<[string, string]>)
      : []),
  ]);
  const subject = t('email.practice.subject', { type, date: emailDate(input.date, 'de', 'short'), time: input.time });
  const message = practiceMessage(practiceEmail, subject, t('email.practice.intro'), details, full ? p.email : undefined);
  const linkHtml = `<p><a href="${escapeHtml(link)}">${escapeHtml(t('email.practice.openBooking'))}</a></p>`;
  const note = full ? '' : `<p>${escapeHtml(t('email.practice.noPatientData'))}</p>`;
  return {
    ...message,
    html: message.html.replace('</body></html>', `${linkHtml}${note}</body></html>`),
    text: `${message.text}\n${t('email.practice.openBooking')}:\n${link}\n${full ? '' : `\n${t('email.practice.noPatientData')}\n`}`,
  };
}

/**
 * Sends both emails side by side. A failure is logged by kind only (the
 * error's name), never with an address or message, and reported per email.
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

export interface RescheduleEmailInput {
  /** The booking's reference, which it keeps when moved. */
  reference: string;
  type: Pick<AppointmentTypeRow, 'name' | 'nameEn' | 'slotDurationMinutes'>;
  old: { date: string; time: string };
  moved: { date: string; time: string };
  /** The language of the page the patient moved the appointment on. */
  language: Lang;
}

/**
 * The practice's notice of a moved appointment (German): reference,
 * type, old and new date and time. No patient data: the site keeps none.
 */
export function practiceRescheduleNotification(input: RescheduleEmailInput, practiceEmail: string): EmailMessage {
  const t = useTranslations('de');
  const type = typeName(input.type, 'de');
  const details = rows([
    [t('email.label.reference'), input.reference],
    [t('email.label.type'), type],
    [t('email.label.oldDate'), emailDate(input.old.date, 'de', 'long')],
    [t('email.label.oldTime'), t('email.time', { time: input.old.time })],
    [t('email.label.newDate'), emailDate(input.moved.date, 'de', 'long')],
    [t('email.label.newTime'), t('email.time', { time: input.moved.time })],
    [t('email.label.duration'), t('email.duration', { minutes: input.type.slotDurationMinutes })],
    [t('email.label.language'), input.language === 'de' ? 'Deutsch' : 'Englisch'],
  ]);
  const subject = t('email.reschedule.subject', { type, date: emailDate(input.moved.date, 'de', 'short'), time: input.moved.time });
  return practiceMessage(practiceEmail, subject, t('email.reschedule.intro'), details);
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

export interface CancellationNoticeInput {
  type: Pick<AppointmentTypeRow, 'name' | 'nameEn'>;
  date: string;
  time: string;
  reference: string;
}

/** The practice's notice of a patient's cancellation, in German: type, date, time, reference; nothing of the patient. */
export function cancellationNotice(input: CancellationNoticeInput, practiceEmail: string): EmailMessage {
  const t = useTranslations('de');
  const type = typeName(input.type, 'de');
  const details = rows([
    [t('email.label.reference'), input.reference],
    [t('email.label.type'), type],
    [t('email.label.date'), emailDate(input.date, 'de', 'long')],
    [t('email.label.time'), t('email.time', { time: input.time })],
  ]);
  const subject = t('email.cancelNotice.subject', { type, date: emailDate(input.date, 'de', 'short'), time: input.time, reference: input.reference });
  return practiceMessage(practiceEmail, subject, t('email.cancelNotice.intro'), details);
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

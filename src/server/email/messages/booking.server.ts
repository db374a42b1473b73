/**
 * The emails of a booking (docs/architecture.md, Privacy): the patient's
 * confirmation in the booking's language with a cancellation link and an
 * .ics file, and the practice's notices, in German: a new booking (what and
 * when, with a link into the back office, and the patient's details only
 * when the practice asked for them, `PRACTICE_NOTICE_DETAILS=full`), a
 * patient's move and a patient's cancellation. Patient data is escaped in
 * every HTML body. Pure builders: the senders are in ../senders.server.ts.
 */
import { useTranslations, type Lang } from '../../../i18n/i18n';
import { escapeHtml } from '../../../lib/html';
import { displayPhone } from '../../../lib/phone';
import { emailSenderName } from '../../../lib/practice';
import type { AppointmentTypeRow } from '../../../../db/schema';
import type { EmailMessage } from '../port.server';
import {
  addressRow,
  appointmentIcs,
  cancellationUrl,
  emailDate,
  greeting as greet,
  icsAttachment,
  patientHtmlStart,
  priceRow,
  rows,
  signOff,
  typeName,
  type DetailRow,
} from './kit.server';

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

export function patientConfirmation(input: BookingEmailInput, siteUrl: string): EmailMessage {
  const lang = input.language;
  const t = useTranslations(lang);
  const type = typeName(input.type, lang);
  const longDate = emailDate(input.date, lang, 'long');
  const link = cancellationUrl(siteUrl, input.token, lang);
  const details = rows([
    [t('email.label.reference'), input.reference],
    [t('email.label.type'), type],
    [t('email.label.date'), longDate],
    [t('email.label.time'), t('email.time', { time: input.time })],
    [t('email.label.duration'), t('email.duration', { minutes: input.type.slotDurationMinutes })],
    ...priceRow(input.type, lang),
    addressRow(lang, t),
  ]);
  const name = `${input.patient.first_name} ${input.patient.last_name}`;
  const greeting = greet(t, name);
  const footer = signOff(t, lang);
  const html = `${patientHtmlStart(lang)}
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(t('email.patient.intro'))}</p>
${details.html}
<p>${escapeHtml(t('email.patient.bring'))}</p>
<p>${escapeHtml(t('email.patient.calendar'))}</p>
<p>${escapeHtml(t('email.patient.cancelIntro'))}<br><a href="${escapeHtml(link)}">${escapeHtml(t('email.patient.cancelLink'))}</a></p>
${footer.html}
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
    ...footer.text,
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

/** How much of the patient the practice's notification carries (docs/decisions/026). */
export type PracticeNoticeDetails = 'minimal' | 'full';

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
 * The practice's notification, in German (the back office's language),
 * worded as reception would say it: that a patient booked online (the
 * source, in the subject and the first sentence), then reference, type,
 * date, time, duration and a link to the booking in the back office. No
 * patient data (the back office is the one place staff see patients,
 * docs/decisions/025-patient-details-for-staff.md), unless the practice
 * chose `full`: then name, birth date, phone, email and language as before,
 * and replies go to the patient.
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
    ...(full
      ? ([
          [t('email.label.patient'), `${p.first_name} ${p.last_name}`],
          [t('email.label.birthDate'), emailDate(p.birth_date, 'de', 'short')],
          [t('email.label.phone'), displayPhone(p.phone)],
          [t('email.label.email'), p.email],
          [t('email.label.language'), input.language === 'de' ? 'Deutsch' : 'Englisch'],
        ] as DetailRow[])
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
 * Where a move came from, said in the practice's notice: the patient's own
 * link (the confirmation email's), the waitlist (a patient took an earlier
 * time that had freed up), or staff in the back office.
 */
export type MoveOrigin = 'link' | 'waitlist' | 'staff';

export interface RescheduleEmailInput {
  /** The booking's reference, which it keeps when moved. */
  reference: string;
  type: Pick<AppointmentTypeRow, 'name' | 'nameEn' | 'slotDurationMinutes'>;
  old: { date: string; time: string };
  moved: { date: string; time: string };
  /** The language of the booking's emails (the page the patient moved it on). */
  language: Lang;
  /** Where the move came from. */
  via: MoveOrigin;
  /** With `via: 'staff'`: the staff account that moved it (its email), named in the notice. */
  movedBy?: string;
  /** The booking's id: with `siteUrl` the notice links to the booking in the back office. */
  bookingId?: string;
}

const SUBJECT_KEY = { link: 'email.reschedule.subjectLink', waitlist: 'email.reschedule.subjectWaitlist', staff: 'email.reschedule.subjectStaff' } as const;
const INTRO_KEY = { link: 'email.reschedule.introLink', waitlist: 'email.reschedule.introWaitlist', staff: 'email.reschedule.introStaff' } as const;
const VIA_KEY = { link: 'email.reschedule.viaLink', waitlist: 'email.reschedule.viaWaitlist', staff: 'email.reschedule.viaStaff' } as const;

/**
 * The practice's notice of a moved appointment (German), saying where the
 * move came from (the patient's link, the waitlist, the back office) in its
 * subject, its first sentence and a row: reference, type, the new and the
 * former time, duration, the language of the patient's emails, and, given
 * the booking's id and the site, a link to it in the back office. No
 * patient data, like the notice of a new booking.
 */
export function practiceRescheduleNotification(input: RescheduleEmailInput, practiceEmail: string, options: { siteUrl?: string } = {}): EmailMessage {
  const t = useTranslations('de');
  const type = typeName(input.type, 'de');
  const when = (at: { date: string; time: string }) => t('email.reschedule.when', { date: emailDate(at.date, 'de', 'long'), time: at.time });
  const who = input.movedBy || t('email.reschedule.someoneOnStaff');
  const details = rows([
    [t('email.label.reference'), input.reference],
    [t('email.label.type'), type],
    [t('email.label.newAppointment'), when(input.moved)],
    [t('email.label.oldAppointment'), when(input.old)],
    [t('email.label.duration'), t('email.duration', { minutes: input.type.slotDurationMinutes })],
    [t('email.label.movedVia'), t(VIA_KEY[input.via], { who })],
    [t('email.label.emailLanguage'), input.language === 'de' ? 'Deutsch' : 'Englisch'],
  ]);
  const subject = t(SUBJECT_KEY[input.via], { type, date: emailDate(input.moved.date, 'de', 'short'), time: input.moved.time });
  const message = practiceMessage(practiceEmail, subject, t(INTRO_KEY[input.via], { who }), details);
  if (!input.bookingId || !options.siteUrl) return message;
  const link = backOfficeBookingUrl(options.siteUrl, input.bookingId);
  return {
    ...message,
    html: message.html.replace('</body></html>', `<p><a href="${escapeHtml(link)}">${escapeHtml(t('email.practice.openBooking'))}</a></p></body></html>`),
    text: `${message.text}\n${t('email.practice.openBooking')}:\n${link}\n`,
  };
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

/**
 * The patient's emails about a change of their appointment (DESIGN.md,
 * Practice-side changes), in the booking's language, from the sealed
 * appointment contact:
 * - cancelled by the practice: type, date, time, reference, the practice's
 *   message, its phone, a link to book again, an .ics with METHOD:CANCEL;
 * - moved by the practice: the new and the old time, the link that moves
 *   or cancels, an .ics (METHOD:REQUEST) with the same UID and a higher SEQUENCE;
 * - the patient's own cancellation and move: the same, as a confirmation.
 * Values are escaped in every HTML body; nothing is logged but the kind of
 * a failure. A failure never undoes the change: the sender reports false.
 */
import { localizedPath, useTranslations, type Lang } from '../i18n/i18n';
import { emailDate } from '../lib/email-dates';
import { escapeHtml } from '../lib/html';
import { emailSenderName, fullAddress, practice } from '../lib/practice';
import type { AppointmentTypeRow } from '../../db/schema';
import type { ContactSecret } from './appointment-contact/seal.server';
import { appointmentIcs, cancellationUrl, configuredEmail, icsAttachment, rows, typeName } from './booking-emails.server';
import type { EmailMessage, EmailSender } from './email/email.server';

export type NoticeKind = 'cancelled-by-practice' | 'moved-by-practice' | 'cancelled' | 'moved';

export interface PatientNoticeInput {
  kind: NoticeKind;
  contact: ContactSecret;
  bookingId: string;
  reference: string;
  type: Pick<AppointmentTypeRow, 'name' | 'nameEn' | 'slotDurationMinutes'>;
  /** The appointment's (new) date and time. */
  date: string;
  time: string;
  /** A move's previous date and time. */
  old?: { date: string; time: string };
  /** The calendar event's SEQUENCE after the change (a cancellation: one more than the last one sent). */
  sequence: number;
  /** The practice's message to the patient (its cancellation or move); sent as typed, never stored. */
  message?: string;
}

const KEYS = {
  'cancelled-by-practice': { subject: 'email.notice.practiceCancelled.subject', intro: 'email.notice.practiceCancelled.intro' },
  'moved-by-practice': { subject: 'email.notice.practiceMoved.subject', intro: 'email.notice.practiceMoved.intro' },
  cancelled: { subject: 'email.notice.cancelled.subject', intro: 'email.notice.cancelled.intro' },
  moved: { subject: 'email.notice.moved.subject', intro: 'email.notice.moved.intro' },
} as const satisfies Record<NoticeKind, { subject: string; intro: string }>;

/** Paragraphs of text as HTML (escaped; line breaks kept). */
const paragraph = (text: string) => `<p>${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;

export function patientNotice(input: PatientNoticeInput, siteUrl: string): EmailMessage {
  const lang: Lang = input.contact.language;
  const t = useTranslations(lang);
  const keys = KEYS[input.kind];
  const type = typeName(input.type, lang);
  const practiceName = practice.name[lang];
  const cancelled = input.kind === 'cancelled' || input.kind === 'cancelled-by-practice';
  const link = cancelled ? null : cancellationUrl(siteUrl, input.contact.token, lang);
  const rebook = new URL(localizedPath('/termin', lang), siteUrl).href;
  const time = (value: string) => t('email.time', { time: value });
  const details = rows([
    [t('email.label.reference'), input.reference],
    [t('email.label.type'), type],
    [t(input.old ? 'email.label.newDate' : 'email.label.date'), emailDate(input.date, lang, 'long')],
    [t(input.old ? 'email.label.newTime' : 'email.label.time'), time(input.time)],
    ...(input.old
      ? ([
          [t('email.label.oldDate'), emailDate(input.old.date, lang, 'long')],
          [t('email.label.oldTime'), time(input.old.time)],
        ] as Array<[string, string]>)
      : []),
    [t('email.label.address'), `${practiceName}, ${fullAddress()}`],
  ]);
  const name = `${input.contact.firstName} ${input.contact.lastName}`.trim();
  const greeting = t('email.patient.greeting', { name });
  const intro = t(keys.intro);
  const message = input.message?.trim() ? input.message.trim() : null;
  const calendar = t(cancelled ? 'email.notice.calendarRemove' : 'email.notice.calendarUpdate');
  const next = cancelled ? t('email.notice.rebook', { phone: practice.phone }) : t('email.notice.changeAgain');
  const nextLink = cancelled ? rebook : link!;
  const nextLabel = cancelled ? t('email.notice.rebookLink') : t('email.notice.changeLink');
  const signature = t('email.patient.signature', { practice: practiceName });
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#1e293b">
${paragraph(greeting)}
${paragraph(intro)}
${details.html}
${message ? `<p><strong>${escapeHtml(t('email.notice.message'))}</strong></p>${paragraph(message)}` : ''}
${paragraph(calendar)}
<p>${escapeHtml(next)}<br><a href="${escapeHtml(nextLink)}">${escapeHtml(nextLabel)}</a></p>
<p>${escapeHtml(t('email.patient.regards'))}<br>${escapeHtml(signature)}<br>${escapeHtml(practice.phone)}</p>
</body></html>`;
  const text = [
    greeting,
    '',
    intro,
    '',
    details.text,
    ...(message ? ['', `${t('email.notice.message')}:`, message] : []),
    '',
    calendar,
    '',
    next,
    nextLink,
    '',
    t('email.patient.regards'),
    signature,
    practice.phone,
  ].join('\n');
  const method = cancelled ? 'CANCEL' : 'REQUEST';
  const ics = appointmentIcs({
    bookingId: input.bookingId,
    siteUrl,
    date: input.date,
    time: input.time,
    type: input.type,
    lang,
    ...(link ? { link } : {}),
    sequence: input.sequence,
    method,
    attendee: { name, email: input.contact.email },
  });
  const fromName = emailSenderName(lang);
  return {
    to: input.contact.email,
    ...(fromName ? { fromName } : {}),
    subject: t(keys.subject, { type, date: emailDate(input.date, lang, 'short'), time: input.time }),
    html,
    text,
    attachments: [icsAttachment(ics, lang, method)],
  };
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

/**
 * The patient's emails about a change of their appointment
 * (docs/decisions/021-appointment-contact-and-practice-changes.md), in the booking's language, from the sealed
 * appointment contact:
 * - cancelled by the practice: type, date, time, reference, the practice's
 *   message, its phone, a link to book again, an .ics with METHOD:CANCEL;
 * - moved by the practice: the new and the old time, the link that moves
 *   or cancels, an .ics (METHOD:REQUEST) with the same UID and a higher SEQUENCE;
 * - the patient's own cancellation and move: the same, as a confirmation.
 * Values are escaped in every HTML body. A pure builder: the sender is
 * sendPatientNotice in ../senders.server.ts.
 */
import { useTranslations, type Lang } from '../../../i18n/i18n';
import { escapeHtml } from '../../../lib/html';
import { emailSenderName, practice } from '../../../lib/practice';
import type { AppointmentTypeRow } from '../../../../db/schema';
import type { ContactSecret } from '../../appointment-contact/seal.server';
import type { EmailMessage } from '../port.server';
import {
  addressRow,
  appointmentIcs,
  cancellationUrl,
  emailDate,
  greeting as greet,
  icsAttachment,
  patientHtmlStart,
  rebookUrl,
  rows,
  signOff,
  typeName,
  type DetailRow,
} from './kit.server';

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
  const cancelled = input.kind === 'cancelled' || input.kind === 'cancelled-by-practice';
  const link = cancelled ? null : cancellationUrl(siteUrl, input.contact.token, lang);
  const rebook = rebookUrl(siteUrl, lang);
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
        ] as DetailRow[])
      : []),
    addressRow(lang, t),
  ]);
  const name = `${input.contact.firstName} ${input.contact.lastName}`.trim();
  const greeting = greet(t, name);
  const intro = t(keys.intro);
  const message = input.message?.trim() ? input.message.trim() : null;
  const calendar = t(cancelled ? 'email.notice.calendarRemove' : 'email.notice.calendarUpdate');
  const next = cancelled ? t('email.notice.rebook', { phone: practice.phone }) : t('email.notice.changeAgain');
  const nextLink = cancelled ? rebook : link!;
  const nextLabel = cancelled ? t('email.notice.rebookLink') : t('email.notice.changeLink');
  const footer = signOff(t, lang);
  const html = `${patientHtmlStart(lang)}
${paragraph(greeting)}
${paragraph(intro)}
${details.html}
${message ? `<p><strong>${escapeHtml(t('email.notice.message'))}</strong></p>${paragraph(message)}` : ''}
${paragraph(calendar)}
<p>${escapeHtml(next)}<br><a href="${escapeHtml(nextLink)}">${escapeHtml(nextLabel)}</a></p>
${footer.html}
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
    ...footer.text,
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

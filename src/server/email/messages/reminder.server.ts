/**
 * The reminder email (docs/decisions/009-reminders-sealed-at-rest.md), in the booking's language:
 * type, long date, time, address, what to bring, and the links to cancel
 * and to book another time. The first name is the only value the patient
 * typed; it is escaped in the HTML body.
 */
import { useTranslations, type Lang, type Translate } from '../../../i18n/i18n';
import { escapeHtml } from '../../../lib/html';
import { emailSenderName } from '../../../lib/practice';
import type { EmailMessage } from '../port.server';
import { addressRow, cancellationUrl, emailDate, patientHtmlStart, priceRow, rebookUrl, rows, signOff, typeName, type DetailRow } from './kit.server';

export interface ReminderEmailInput {
  to: string;
  firstName: string;
  language: Lang;
  token: string;
  /** The price of a self-pay type (null or absent: none). */
  type: { name: string; nameEn: string | null; priceCents?: number | null };
  date: string;
  time: string;
}

// Making an i18next instance costs about 4 ms; the job builds hundreds of these emails per run.
const translators = new Map<Lang, Translate>();
function translator(lang: Lang): Translate {
  let t = translators.get(lang);
  if (!t) translators.set(lang, (t = useTranslations(lang)));
  return t;
}

export function buildReminderEmail(input: ReminderEmailInput, siteUrl: string): EmailMessage {
  const lang = input.language;
  const t = translator(lang);
  const type = typeName(input.type, lang);
  const cancel = cancellationUrl(siteUrl, input.token, lang);
  const rebook = rebookUrl(siteUrl, lang);
  const pairs: DetailRow[] = [
    [t('email.label.type'), type],
    [t('email.label.date'), emailDate(input.date, lang, 'long')],
    [t('email.label.time'), t('email.time', { time: input.time })],
    ...priceRow(input.type, lang, t),
    addressRow(lang, t),
  ];
  const details = rows(pairs);
  const greeting = t('email.reminder.greeting', { name: input.firstName });
  const footer = signOff(t, lang);
  const html = `${patientHtmlStart(lang)}
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(t('email.reminder.intro'))}</p>
${details.html}
<p>${escapeHtml(t('email.patient.bring'))}</p>
<p>${escapeHtml(t('email.reminder.cancelIntro'))}<br><a href="${escapeHtml(cancel)}">${escapeHtml(t('email.reminder.cancelLink'))}</a> · <a href="${escapeHtml(rebook)}">${escapeHtml(t('email.reminder.rebookLink'))}</a></p>
${footer.html}
<p style="font-size:12px;color:#64748b">${escapeHtml(t('email.reminder.why'))}</p>
</body></html>`;
  const text = [
    greeting,
    '',
    t('email.reminder.intro'),
    '',
    details.text,
    '',
    t('email.patient.bring'),
    '',
    t('email.reminder.cancelIntro'),
    `${t('email.reminder.cancelLink')}: ${cancel}`,
    `${t('email.reminder.rebookLink')}: ${rebook}`,
    '',
    ...footer.text,
    '',
    t('email.reminder.why'),
  ].join('\n');
  const fromName = emailSenderName(lang);
  return {
    to: input.to,
    ...(fromName ? { fromName } : {}),
    subject: t('email.reminder.subject', { type, date: emailDate(input.date, lang, 'short'), time: input.time }),
    html,
    text,
  };
}

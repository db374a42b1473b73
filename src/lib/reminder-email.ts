/**
 * The reminder email (DESIGN.md, Reminders), in the booking's language:
 * type, long date, time, address, what to bring, and the links to cancel
 * and to book another time. The first name is the only value the patient
 * typed; it is escaped in the HTML body.
 */
import { localizedPath, useTranslations, type Lang, type Translate } from '../i18n/i18n';
import type { EmailMessage } from '../server/email/email.server';
import { emailDate } from './email-dates';
import { escapeHtml } from './html';
import { emailSenderName, fullAddress, practice } from './practice';
import { formatPrice } from './price';

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
  const type = lang === 'en' && input.type.nameEn ? input.type.nameEn : input.type.name;
  const practiceName = practice.name[lang];
  const cancel = new URL(localizedPath('/termin/absagen', lang), siteUrl);
  cancel.searchParams.set('token', input.token);
  const rebook = new URL(localizedPath('/termin', lang), siteUrl).href;
  const pairs: Array<[string, string]> = [
    [t('email.label.type'), type],
    [t('email.label.date'), emailDate(input.date, lang, 'long')],
    [t('email.label.time'), t('email.time', { time: input.time })],
    ...(input.type.priceCents === null || input.type.priceCents === undefined
      ? []
      : ([[t('email.label.price'), formatPrice(input.type.priceCents, lang)]] as Array<[string, string]>)),
    [t('email.label.address'), `${practiceName}, ${fullAddress()}`],
  ];
  const greeting = t('email.reminder.greeting', { name: input.firstName });
  const signature = t('email.patient.signature', { practice: practiceName });
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#1e293b">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(t('email.reminder.intro'))}</p>
<table role="presentation" cellpadding="4" style="border-collapse:collapse">${pairs
    .map(([k, v]) => `<tr><th align="left" style="padding-right:16px">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('')}</table>
<p>${escapeHtml(t('email.patient.bring'))}</p>
<p>${escapeHtml(t('email.reminder.cancelIntro'))}<br><a href="${escapeHtml(cancel.href)}">${escapeHtml(t('email.reminder.cancelLink'))}</a> · <a href="${escapeHtml(rebook)}">${escapeHtml(t('email.reminder.rebookLink'))}</a></p>
<p>${escapeHtml(t('email.patient.regards'))}<br>${escapeHtml(signature)}<br>${escapeHtml(practice.phone)}</p>
<p style="font-size:12px;color:#64748b">${escapeHtml(t('email.reminder.why'))}</p>
</body></html>`;
  const text = [
    greeting,
    '',
    t('email.reminder.intro'),
    '',
    ...pairs.map(([k, v]) => `${k}: ${v}`),
    '',
    t('email.patient.bring'),
    '',
    t('email.reminder.cancelIntro'),
    `${t('email.reminder.cancelLink')}: ${cancel.href}`,
    `${t('email.reminder.rebookLink')}: ${rebook}`,
    '',
    t('email.patient.regards'),
    signature,
    practice.phone,
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

/**
 * The waitlist's emails to the patient, in the entry's language
 * (docs/decisions/032-waitlist.md): the offer of a freed time with its link,
 * and the confirmation of joining. Both carry the link that takes the
 * patient off the list. Values are escaped in the HTML; a failure is logged
 * by kind only.
 */
import { localizedPath } from '../../../i18n/languages';
import type { AppointmentTypeRow } from '../../../../db/schema';
import { escapeHtml } from '../../../lib/html';
import { emailSenderName } from '../../../lib/practice';
import { waitlistText } from '../../../lib/waitlist-texts';
import { useTranslations } from '../../../i18n/i18n';
import type { EntrySecret } from '../../waitlist/seal.server';
import type { EmailMessage } from '../port.server';
import { emailDate, greeting as greet, patientHtmlStart, rows, signOff, typeName, type DetailRow } from './kit.server';

/** The page of an offer (`?offer=`) or of leaving the list (`?leave=`). */
export function waitlistUrl(siteUrl: string, lang: EntrySecret['language'], param: 'offer' | 'leave', token: string): string {
  const url = new URL(localizedPath('/termin/warteliste', lang), siteUrl);
  url.searchParams.set(param, token);
  return url.href;
}

function message(secret: EntrySecret, subject: string, intro: string[], details: { html: string; text: string } | null, action: { label: string; href: string } | null, siteUrl: string): EmailMessage {
  const lang = secret.language;
  const t = useTranslations(lang);
  const name = `${secret.firstName} ${secret.lastName}`.trim();
  const greeting = greet(t, name);
  const leave = waitlistUrl(siteUrl, lang, 'leave', secret.token);
  const unsubscribe = waitlistText(lang, 'waitlist.email.unsubscribe');
  const footer = signOff(t, lang);
  const html = `${patientHtmlStart(lang)}
<p>${escapeHtml(greeting)}</p>
${intro.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${details?.html ?? ''}
${action ? `<p><a href="${escapeHtml(action.href)}">${escapeHtml(action.label)}</a></p>` : ''}
${footer.html}
<p style="font-size:small">${escapeHtml(unsubscribe)} <a href="${escapeHtml(leave)}">${escapeHtml(leave)}</a></p>
</body></html>`;
  const text = [
    greeting,
    '',
    ...intro.flatMap((p) => [p, '']),
    ...(details ? [details.text, ''] : []),
    ...(action ? [action.label, action.href, ''] : []),
    ...footer.text,
    '',
    unsubscribe,
    leave,
  ].join('\n');
  const fromName = emailSenderName(lang);
  return { to: secret.email, ...(fromName ? { fromName } : {}), subject, html, text };
}

export function offerEmail(
  secret: EntrySecret,
  offer: { token: string; date: string; time: string; type: Pick<AppointmentTypeRow, 'name' | 'nameEn' | 'slotDurationMinutes'>; current: { date: string; time: string } | null },
  siteUrl: string,
): EmailMessage {
  const lang = secret.language;
  const t = useTranslations(lang);
  const type = typeName(offer.type, lang);
  const details = rows([
    [t('email.label.type'), type],
    [t('email.label.date'), emailDate(offer.date, lang, 'long')],
    [t('email.label.time'), t('email.time', { time: offer.time })],
    ...(offer.current
      ? ([
          [t('email.label.oldDate'), emailDate(offer.current.date, lang, 'long')],
          [t('email.label.oldTime'), t('email.time', { time: offer.current.time })],
        ] as DetailRow[])
      : []),
  ]);
  const intro = [waitlistText(lang, 'waitlist.email.offer.intro'), waitlistText(lang, 'waitlist.email.offer.validUntil')];
  if (offer.current) intro.push(waitlistText(lang, 'waitlist.email.offer.current'));
  const subject = waitlistText(lang, 'waitlist.email.offer.subject', { type, date: emailDate(offer.date, lang, 'short'), time: offer.time });
  return message(secret, subject, intro, details, { label: waitlistText(lang, 'waitlist.email.offer.link'), href: waitlistUrl(siteUrl, lang, 'offer', offer.token) }, siteUrl);
}

export function joinedEmail(secret: EntrySecret, entry: { from: string; to: string; type: Pick<AppointmentTypeRow, 'name' | 'nameEn'> }, siteUrl: string): EmailMessage {
  const lang = secret.language;
  const type = typeName(entry.type, lang);
  const values = { type, from: emailDate(entry.from, lang, 'short'), to: emailDate(entry.to, lang, 'short') };
  return message(secret, waitlistText(lang, 'waitlist.email.joined.subject', { type }), [waitlistText(lang, 'waitlist.email.joined.intro', values)], null, null, siteUrl);
}

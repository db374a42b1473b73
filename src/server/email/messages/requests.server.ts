/**
 * The emails of patient requests (docs/decisions/036-patient-requests.md):
 * the patient's receipt and the status emails (done, declined) in the
 * request's language, each with the reference and the status link; and the
 * practice's notice, which says only how many new requests wait.
 *
 * No email names a medication, a specialty, a reason or a topic: the
 * patient's emails name the kind only, the practice's not even that. The
 * practice's own message to the patient (a status change) goes as typed.
 */
import { localizedPath, useTranslations, type Lang } from '../../../i18n/i18n';
import { escapeHtml } from '../../../lib/html';
import { emailSenderName } from '../../../lib/practice';
import type { RequestKind } from '../../../lib/request-schema';
import { requestText } from '../../../lib/request-texts';
import type { EmailMessage } from '../port.server';
import { emailDate, greeting, patientHtmlStart, rows, signOff } from './kit.server';

/** The patient's status page of a request. */
export function requestStatusUrl(siteUrl: string, token: string, lang: Lang): string {
  const url = new URL(localizedPath('/anfrage/status', lang), siteUrl);
  url.searchParams.set('token', token);
  return url.href;
}

/** The back office's queue of open requests (signed out, the page sends the browser to sign in and back). */
export function requestQueueUrl(siteUrl: string): string {
  return new URL('/admin/anfragen', siteUrl).href;
}

export interface RequestPatient {
  email: string;
  first_name: string;
  last_name: string;
  language: Lang;
  /** The status link's token. */
  token: string;
}

/** Paragraphs of a text as typed (line breaks kept), escaped. */
const paragraphHtml = (text: string) => `<p>${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;

function patientMessage(
  patient: RequestPatient,
  subject: string,
  body: { intro: string; reference: string; message?: { label: string; text: string } | null; notice?: string | null },
  siteUrl: string,
): EmailMessage {
  const lang = patient.language;
  const t = useTranslations(lang);
  const hello = greeting(t, `${patient.first_name} ${patient.last_name}`.trim());
  const link = requestStatusUrl(siteUrl, patient.token, lang);
  const details = rows([[requestText(lang, 'requests.email.reference'), body.reference]]);
  const footer = signOff(t, lang);
  const linkLabel = requestText(lang, 'requests.email.statusLink');
  const noHealthData = requestText(lang, 'requests.email.noHealthData');
  const html = `${patientHtmlStart(lang)}
<p>${escapeHtml(hello)}</p>
<p>${escapeHtml(body.intro)}</p>
${details.html}
${body.message ? `<p><strong>${escapeHtml(body.message.label)}</strong></p>\n${paragraphHtml(body.message.text)}` : ''}
${body.notice ? paragraphHtml(body.notice) : ''}
<p>${escapeHtml(linkLabel)}<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>${escapeHtml(noHealthData)}</p>
${footer.html}
</body></html>`;
  const text = [
    hello,
    '',
    body.intro,
    '',
    details.text,
    '',
    ...(body.message ? [body.message.label, body.message.text, ''] : []),
    ...(body.notice ? [body.notice, ''] : []),
    linkLabel,
    link,
    '',
    noHealthData,
    '',
    ...footer.text,
  ].join('\n');
  const fromName = emailSenderName(lang);
  return { to: patient.email, ...(fromName ? { fromName } : {}), subject, html, text };
}

const kindName = (kind: RequestKind, lang: Lang) => requestText(lang, `requests.kind.${kind}`);

/** The receipt: the kind, the reference, the status link and the practice's notice for the form, if any. */
export function requestReceiptEmail(patient: RequestPatient, request: { kind: RequestKind; reference: string; notice: string | null }, siteUrl: string): EmailMessage {
  const lang = patient.language;
  const values = { kind: kindName(request.kind, lang), reference: request.reference };
  return patientMessage(
    patient,
    requestText(lang, 'requests.email.receipt.subject', values),
    { intro: requestText(lang, 'requests.email.receipt.intro', values), reference: request.reference, notice: request.notice },
    siteUrl,
  );
}

/** Done (the message optional) or declined (with the practice's message). */
export function requestStatusEmail(
  patient: RequestPatient,
  request: { kind: RequestKind; reference: string; status: 'done' | 'declined'; message: string | null; /** The Berlin date it arrived. */ receivedDate: string },
  siteUrl: string,
): EmailMessage {
  const lang = patient.language;
  const values = { kind: kindName(request.kind, lang), reference: request.reference, date: emailDate(request.receivedDate, lang, 'long') };
  return patientMessage(
    patient,
    requestText(lang, `requests.email.${request.status}.subject`, values),
    {
      intro: requestText(lang, `requests.email.${request.status}.intro`, values),
      reference: request.reference,
      message: request.message ? { label: requestText(lang, 'requests.email.message'), text: request.message } : null,
    },
    siteUrl,
  );
}

const requests = (n: number) => (n === 1 ? '1 neue Anfrage' : `${n} neue Anfragen`);

/**
 * The practice's notice (German): how many requests arrived since the last
 * notice and how many are open, with the link to the queue. Nothing of any
 * patient, not even the kinds.
 */
export function practiceRequestsNotice(counts: { fresh: number; open: number }, practiceEmail: string, siteUrl: string): EmailMessage {
  const subject = requests(counts.fresh);
  const intro = `Über die Website ${counts.fresh === 1 ? 'ist 1 neue Anfrage' : `sind ${counts.fresh} neue Anfragen`} eingegangen. Offen sind jetzt insgesamt ${counts.open}.`;
  const link = requestQueueUrl(siteUrl);
  const note = 'Was angefragt wurde, sehen Sie nach der Anmeldung in der Verwaltung. In dieser E-Mail steht das aus Datenschutzgründen nicht.';
  return {
    to: practiceEmail,
    subject,
    html: `<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;color:#1e293b"><p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">Die Anfragen in der Verwaltung ansehen</a></p><p>${escapeHtml(note)}</p></body></html>`,
    text: `${intro}\n\nDie Anfragen in der Verwaltung ansehen:\n${link}\n\n${note}\n`,
  };
}

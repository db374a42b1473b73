/**
 * The readable page a contact form post without JavaScript gets back
 * (issue 14): the outcome in the form's language, the field errors as the
 * form would show them, a way back. Nothing the visitor entered is echoed.
 */
import { localizedPath, useTranslations, type Lang, type TranslationKey } from '../i18n/i18n';
import type { FieldErrors } from '../lib/errors';
import { escapeHtml } from '../lib/html';
import { practice } from '../lib/practice';

export type ContactResult =
  | { kind: 'sent' }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'rate-limited' }
  | { kind: 'refused' }
  | { kind: 'failed' };

const FIELD_LABELS: Record<string, TranslationKey> = {
  name: 'contact.form.name',
  email: 'contact.form.email',
  phone: 'contact.form.phone',
  subject: 'contact.form.subject',
  message: 'contact.form.message',
};

export function contactResultHtml(result: ContactResult, lang: Lang): string {
  const t = useTranslations(lang);
  const contactPage = localizedPath('/kontakt', lang);
  let title: string;
  let body: string;
  switch (result.kind) {
    case 'sent':
      title = t('contactResult.sentTitle');
      body = `<p>${escapeHtml(t('contactResult.sentText'))}</p>`;
      break;
    case 'invalid': {
      title = t('contactResult.invalidTitle');
      const items = Object.entries(result.errors).flatMap(([field, keys]) =>
        keys.map((key) => {
          const label = FIELD_LABELS[field] ? `${t(FIELD_LABELS[field])}: ` : '';
          return `<li>${escapeHtml(label + t(key as TranslationKey))}</li>`;
        }),
      );
      body = `<p>${escapeHtml(t('contactResult.invalidText'))}</p><ul>${items.join('')}</ul>
<p><a href="${escapeHtml(contactPage)}">${escapeHtml(t('contactResult.back'))}</a></p>`;
      break;
    }
    case 'rate-limited':
      title = t('contactResult.failedTitle');
      body = `<p>${escapeHtml(t('contactResult.rateLimited'))}</p>`;
      break;
    case 'refused':
      title = t('contactResult.failedTitle');
      body = `<p>${escapeHtml(t('contactResult.refused'))}</p>`;
      break;
    case 'failed':
      title = t('contactResult.failedTitle');
      body = `<p>${escapeHtml(t('contact.toast.sendFailed'))}</p>`;
      break;
  }
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${title} – ${t('site.name')}`)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1e293b;margin:0;line-height:1.5}
main{max-width:40rem;margin:0 auto;padding:3rem 1rem}
h1{color:#134e4a;font-size:1.75rem;margin:0 0 1rem}
a{color:#115e59;font-weight:600}
li{margin:.25rem 0}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
<p>${escapeHtml(t('contactResult.phone', { phone: practice.phone }))}</p>
<p><a href="${escapeHtml(contactPage)}">${escapeHtml(t('contactResult.home'))}</a></p>
</main>
</body>
</html>
`;
}

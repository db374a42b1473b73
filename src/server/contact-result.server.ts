/**
 * The page a contact form post without JavaScript gets back (docs/decisions/011,
 * 017): the site's own contact page (/kontakt or /en/kontakt, as built, so
 * with the site's header, footer and styles), with the outcome above the
 * form and, unless it was sent, the form still holding what the visitor
 * typed, so correcting a field loses nothing. The errors are listed with
 * their fields' labels and link to the fields, which are marked invalid.
 *
 * The built page is fetched from the site itself (SITE_URL; on Netlify the
 * CDN serves it): a function has no copy of the static pages. Should that
 * fail, a plain page with the same outcome and the same filled-in form
 * answers instead. Values are escaped wherever they go, and a post from
 * another site (refused by the Origin check) gets nothing echoed back.
 */
import { localizedPath, useTranslations, type Lang, type TranslationKey } from '../i18n/i18n';
import { CONTACT_LIMITS, CONTACT_RESULT_ID } from '../lib/contact-message';
import type { FieldErrors } from '../lib/errors';
import { escapeHtml } from '../lib/html';
import { applyEdits, attributeOf, elementsOf, parseWithLocations, replaceContent, setAttributes, type HtmlEdit, type HtmlElement } from '../lib/html-edits';
import { practice } from '../lib/practice';

export type ContactResult =
  | { kind: 'sent' }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'rate-limited' }
  | { kind: 'refused' }
  | { kind: 'failed' };

export const CONTACT_FIELDS = ['name', 'email', 'phone', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
/** What the visitor typed (never the honeypot), to put back into the form. */
export type ContactValues = Partial<Record<ContactField, string>>;

const LABELS: Record<ContactField, TranslationKey> = {
  name: 'contact.form.name',
  email: 'contact.form.email',
  phone: 'contact.form.phone',
  subject: 'contact.form.subject',
  message: 'contact.form.message',
};

/** The values worth putting back: known fields only; nothing once sent, nothing for a refused post. */
export function valuesToKeep(result: ContactResult, form: Record<string, string>): ContactValues {
  if (result.kind === 'sent' || result.kind === 'refused') return {};
  return Object.fromEntries(CONTACT_FIELDS.filter((f) => typeof form[f] === 'string').map((f) => [f, form[f]!]));
}

function outcome(result: ContactResult, t: ReturnType<typeof useTranslations>): { title: string; text: string; kept: boolean } {
  switch (result.kind) {
    case 'sent':
      return { title: t('contactResult.sentTitle'), text: t('contactResult.sentText'), kept: false };
    case 'invalid':
      return { title: t('contactResult.invalidTitle'), text: t('contactResult.invalidText'), kept: true };
    case 'rate-limited':
      return { title: t('contactResult.failedTitle'), text: t('contactResult.rateLimited'), kept: true };
    case 'refused':
      return { title: t('contactResult.failedTitle'), text: t('contactResult.refused'), kept: false };
    case 'failed':
      return { title: t('contactResult.failedTitle'), text: t('contact.toast.sendFailed'), kept: true };
  }
}

/** The outcome as a section above the form: its title, what happened, each error linked to its field, the phone. */
function noticeHtml(result: ContactResult, lang: Lang, fieldIds: Partial<Record<ContactField, string>>, headingLevel: 1 | 3): string {
  const t = useTranslations(lang);
  const { title, text, kept } = outcome(result, t);
  const errors =
    result.kind === 'invalid'
      ? Object.entries(result.errors).map(([field, keys]) => {
          // One item per field, whose id the field names as its description.
          const label = field in LABELS ? `${t(LABELS[field as ContactField])}: ` : '';
          const id = fieldIds[field as ContactField];
          const message = escapeHtml(label + keys.map((key) => t(key as TranslationKey)).join(' '));
          const link = id ? `<a class="underline" href="#${escapeHtml(encodeURIComponent(id))}">${message}</a>` : message;
          return `<li id="${CONTACT_RESULT_ID}-${escapeHtml(field)}">${link}</li>`;
        })
      : [];
  const tone = result.kind === 'sent' ? 'border-brand-600 bg-brand-50' : 'border-amber-300 bg-amber-50';
  return [
    `<section id="${CONTACT_RESULT_ID}" aria-labelledby="${CONTACT_RESULT_ID}-title" class="mb-6 space-y-2 rounded-lg border ${tone} p-4 text-slate-900">`,
    `<h${headingLevel} id="${CONTACT_RESULT_ID}-title" class="text-lg font-semibold">${escapeHtml(title)}</h${headingLevel}>`,
    `<p>${escapeHtml(text)}</p>`,
    errors.length ? `<ul class="list-disc space-y-1 pl-5">${errors.join('')}</ul>` : '',
    kept ? `<p>${escapeHtml(t('contactResult.valuesKept'))}</p>` : '',
    `<p>${escapeHtml(t('contactResult.phone', { phone: practice.phone }))}</p>`,
    '</section>',
  ].join('');
}

/** The value a textarea shows: a leading newline would be eaten by the parser, so it gets one more. */
const textareaContent = (value: string) => escapeHtml(value.startsWith('\n') ? `\n${value}` : value);

/**
 * The built contact page with the outcome in place of its marker and the
 * values in its form's fields; null when the page lacks either.
 */
function intoContactPage(page: string, result: ContactResult, lang: Lang, values: ContactValues): string | null {
  const t = useTranslations(lang);
  const document = parseWithLocations(page);
  const all = [...elementsOf(document)];
  const marker = all.find((e) => attributeOf(e, 'id') === CONTACT_RESULT_ID);
  const form = all.find((e) => e.tagName === 'form' && attributeOf(e, 'action')?.startsWith('/api/contact'));
  const title = all.find((e) => e.tagName === 'title');
  if (!marker || !form || !title) return null;

  const fields = new Map<ContactField, HtmlElement>();
  for (const e of elementsOf(form)) {
    const name = attributeOf(e, 'name') as ContactField | undefined;
    if ((e.tagName === 'input' || e.tagName === 'textarea') && name && CONTACT_FIELDS.includes(name)) fields.set(name, e);
  }
  const fieldIds = Object.fromEntries([...fields].map(([name, e]) => [name, attributeOf(e, 'id')]));
  const edits: HtmlEdit[] = [
    replaceContent(title, escapeHtml(`${outcome(result, t).title} – ${t('site.name')}`)),
    { start: marker.sourceCodeLocation!.startOffset, end: marker.sourceCodeLocation!.endOffset, text: noticeHtml(result, lang, fieldIds, 3) },
  ];
  const invalid = result.kind === 'invalid' ? result.errors : {};
  for (const [name, element] of fields) {
    const value = values[name];
    edits.push(
      ...setAttributes(page, element, {
        ...(value && element.tagName === 'input' ? { value } : {}),
        ...(invalid[name] ? { 'aria-invalid': 'true', 'aria-describedby': `${CONTACT_RESULT_ID}-${name}` } : {}),
      }),
    );
    if (value && element.tagName === 'textarea') edits.push(replaceContent(element, textareaContent(value)));
  }
  return applyEdits(page, edits);
}

/** Without the built page: a plain page with the same outcome and the same form, filled in. */
function standalonePage(result: ContactResult, lang: Lang, values: ContactValues): string {
  const t = useTranslations(lang);
  const id = (f: ContactField) => `contact-${f}`;
  const ids = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, id(f)]));
  const invalid = result.kind === 'invalid' ? result.errors : {};
  const field = (f: ContactField) => {
    const state = invalid[f] ? ` aria-invalid="true" aria-describedby="${CONTACT_RESULT_ID}-${f}"` : '';
    const label = `<label for="${id(f)}">${escapeHtml(t(LABELS[f]))}</label>`;
    return f === 'message'
      ? `<p>${label}<br><textarea id="${id(f)}" name="${f}" rows="6" maxlength="${CONTACT_LIMITS.messageMax}"${state}>${textareaContent(values[f] ?? '')}</textarea></p>`
      : `<p>${label}<br><input id="${id(f)}" name="${f}" value="${escapeHtml(values[f] ?? '')}"${state}></p>`;
  };
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${outcome(result, t).title} – ${t('site.name')}`)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1e293b;margin:0;line-height:1.5}
main{max-width:40rem;margin:0 auto;padding:3rem 1rem}
h1{color:#134e4a;font-size:1.75rem;margin:0 0 1rem}
a{color:#115e59;font-weight:600}
input,textarea{width:100%;box-sizing:border-box;font:inherit;padding:.4rem}
</style>
</head>
<body>
<main>
${noticeHtml(result, lang, ids, 1)}
<form action="/api/contact#${CONTACT_RESULT_ID}" method="post">
<input type="hidden" name="language" value="${lang}">
${CONTACT_FIELDS.map(field).join('\n')}
<p><button type="submit">${escapeHtml(t('contact.form.submit'))}</button></p>
</form>
<p><a href="${escapeHtml(localizedPath('/kontakt', lang))}">${escapeHtml(t('contactResult.home'))}</a></p>
</main>
</body>
</html>
`;
}

/** The answer page: the site's contact page when `sitePage` is it, the plain page otherwise. */
export function contactResultHtml(result: ContactResult, lang: Lang, values: ContactValues, sitePage: string | null): string {
  return (sitePage && intoContactPage(sitePage, result, lang, values)) || standalonePage(result, lang, values);
}

/** The built contact page in `lang`, fetched from the site; null when it cannot be had within two seconds. */
export async function fetchContactPage(siteUrl: string, lang: Lang): Promise<string | null> {
  try {
    const response = await fetch(new URL(localizedPath('/kontakt', lang), siteUrl), { signal: AbortSignal.timeout(2000), redirect: 'follow' });
    if (!response.ok || !response.headers.get('content-type')?.includes('text/html')) throw new Error(`status ${response.status}`);
    return await response.text();
  } catch (error) {
    console.warn(`contact page for the form's answer not loaded (${(error as Error).name}); answering the plain page`);
    return null;
  }
}

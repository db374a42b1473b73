/**
 * The page a contact form post without JavaScript gets back (docs/decisions/011,
 * 017, 040): the site's own contact page (/kontakt or /en/kontakt, as built,
 * so with the site's header, footer and styles), with the outcome above the
 * form and, unless it was sent, the form still holding what the visitor
 * typed, so correcting a field loses nothing. The errors are listed with
 * their fields' labels and link to the fields, which are marked invalid
 * (page-answer.server.ts, the one way such answers are built).
 *
 * Should the site's page not load, a plain page with the same outcome and
 * the same filled-in form answers instead. Values are escaped wherever they
 * go, and a post from another site (refused by the Origin check) gets
 * nothing echoed back.
 */
import { localizedPath, useTranslations, type Lang, type TranslationKey } from '../i18n/i18n';
import { CONTACT_LIMITS, CONTACT_RESULT_ID } from '../lib/contact-message';
import type { FieldErrors } from '../lib/errors';
import { fieldMessage } from '../lib/field-message';
import { escapeHtml } from '../lib/html';
import { applyEdits, attributeOf, elementsOf, replaceContent, setAttributes, type HtmlEdit, type HtmlElement } from '../lib/html-edits';
import { parseWithLocations } from '../lib/html-parse';
import { practice } from '../lib/practice';
import { fetchSitePage, invalidAttributes, outcomeHtml, plainPage, summaryItemId, textareaContent, type SummaryError } from './page-answer.server';
import { contactPages } from './built-pages/contact-pages';

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
  const errors: SummaryError[] =
    result.kind === 'invalid'
      ? Object.entries(result.errors).map(([field, keys]) => {
          const message = keys.map((key) => t(key as TranslationKey)).join(' ');
          return {
            field,
            text: field in LABELS ? fieldMessage(t(LABELS[field as ContactField]), message) : message,
            target: fieldIds[field as ContactField],
          };
        })
      : [];
  return outcomeHtml({
    id: CONTACT_RESULT_ID,
    headingLevel,
    success: result.kind === 'sent',
    title,
    paragraphs: [text],
    errors,
    html: [kept ? `<p>${escapeHtml(t('contactResult.valuesKept'))}</p>` : '', `<p>${escapeHtml(t('contactResult.phone', { phone: practice.phone }))}</p>`].join(''),
  });
}

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
        ...(invalid[name] ? invalidAttributes(element, summaryItemId(CONTACT_RESULT_ID, name)) : {}),
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
    const state = invalid[f] ? ` aria-invalid="true" aria-describedby="${summaryItemId(CONTACT_RESULT_ID, f)}"` : '';
    const label = `<label for="${id(f)}">${escapeHtml(t(LABELS[f]))}</label>`;
    return f === 'message'
      ? `<p>${label}<br><textarea id="${id(f)}" name="${f}" rows="6" maxlength="${CONTACT_LIMITS.messageMax}"${state}>${textareaContent(values[f] ?? '')}</textarea></p>`
      : `<p>${label}<br><input id="${id(f)}" name="${f}" value="${escapeHtml(values[f] ?? '')}"${state}></p>`;
  };
  const body = `${noticeHtml(result, lang, ids, 1)}
<form action="/api/contact#${CONTACT_RESULT_ID}" method="post">
<input type="hidden" name="language" value="${lang}">
${CONTACT_FIELDS.map(field).join('\n')}
<p><button type="submit">${escapeHtml(t('contact.form.submit'))}</button></p>
</form>
<p><a href="${escapeHtml(localizedPath('/kontakt', lang))}">${escapeHtml(t('contactResult.home'))}</a></p>`;
  return plainPage(lang, `${outcome(result, t).title} – ${t('site.name')}`, body);
}

/** The answer page: the site's contact page when `sitePage` is it, the plain page otherwise. */
export function contactResultHtml(result: ContactResult, lang: Lang, values: ContactValues, sitePage: string | null): string {
  return (sitePage && intoContactPage(sitePage, result, lang, values)) || standalonePage(result, lang, values);
}

/** The built contact page in `lang`: the bundle's copy, else fetched from the site; null when it cannot be had within two seconds. */
export function fetchContactPage(siteUrl: string, lang: Lang): Promise<string | null> {
  return fetchSitePage(siteUrl, localizedPath('/kontakt', lang), contactPages);
}

/**
 * The page a request form post without JavaScript gets back
 * (docs/decisions/036-patient-requests.md), as the contact form's
 * (src/server/contact-result.server.ts): the site's own request page, as
 * built and fetched from SITE_URL, with the outcome in place of its marker
 * and, unless it was sent, the form still holding what the visitor typed
 * and chose, the fields in error marked and linked from the outcome. Should
 * the page not load, a plain page with the same outcome answers. Values are
 * escaped wherever they go; a post refused by the Origin check gets nothing
 * echoed back.
 */
import { localizedPath, useTranslations, type Lang } from '../../i18n/i18n';
import type { FieldErrors } from '../../lib/errors';
import { escapeHtml } from '../../lib/html';
import { applyEdits, attributeOf, elementsOf, parseWithLocations, removeAttribute, replaceContent, setAttributes, type HtmlEdit, type HtmlElement } from '../../lib/html-edits';
import { practice } from '../../lib/practice';
import { REQUEST_FORM_FIELDS } from '../../lib/request-form';
import { REQUEST_RESULT_ID, type RequestKind } from '../../lib/request-schema';
import { isRequestTextKey, requestText, type RequestTextKey } from '../../lib/request-texts';

export type RequestResult =
  | { kind: 'sent'; reference: string }
  /** Errors by the form's field names. */
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'closed'; requestKind: RequestKind }
  | { kind: 'rate-limited' }
  | { kind: 'refused' }
  | { kind: 'failed' };

type FormValues = Record<string, string>;

const FIELDS = new Set<string>(REQUEST_FORM_FIELDS);

/** What to put back: the known fields; nothing once sent, nothing for a refused post. */
export function valuesToKeep(result: RequestResult, form: FormValues): FormValues {
  if (result.kind === 'sent' || result.kind === 'refused') return {};
  return Object.fromEntries(Object.entries(form).filter(([name]) => FIELDS.has(name)));
}

const LABELS: Record<string, RequestTextKey> = {
  kind: 'requests.form.kind',
  first_name: 'requests.form.firstName',
  last_name: 'requests.form.lastName',
  birth_date: 'requests.form.birthDate',
  email: 'requests.form.email',
  phone: 'requests.form.phone',
  language: 'requests.form.language',
  consent: 'requests.form.consentShort',
  note: 'requests.form.note',
  insurance: 'requests.form.insurance',
  delivery: 'requests.form.delivery',
  medications: 'requests.form.prescription',
  specialty: 'requests.form.specialty',
  reason: 'requests.form.reason',
  callback_date: 'requests.form.callbackDate',
  daypart: 'requests.form.daypart',
  topic: 'requests.form.topic',
};

/** A field's name as the outcome lists it ("Medikament 2 – Stärke (z. B. 5 mg)"). */
export function fieldLabel(field: string, lang: Lang): string {
  const medication = /^medications\.(\d+)\.(name|strength|pack)$/.exec(field);
  if (medication) {
    const part = { name: 'requests.form.medicationName', strength: 'requests.form.medicationStrength', pack: 'requests.form.medicationPack' } as const;
    return `${requestText(lang, 'requests.form.medication', { n: Number(medication[1]) + 1 })} – ${requestText(lang, part[medication[2] as 'name'])}`;
  }
  const key = LABELS[field];
  return key ? requestText(lang, key) : field;
}

function outcome(result: RequestResult, lang: Lang): { title: string; text: string; kept: boolean } {
  const r = (key: RequestTextKey, values?: Record<string, string>) => requestText(lang, key, values);
  switch (result.kind) {
    case 'sent':
      return { title: r('requests.result.sentTitle'), text: r('requests.result.sentText', { reference: result.reference }), kept: false };
    case 'invalid':
      return { title: r('requests.result.invalidTitle'), text: r('requests.result.invalidText'), kept: true };
    case 'closed':
      return { title: r('requests.result.failedTitle'), text: r(`requests.closed.${result.requestKind}`), kept: true };
    case 'rate-limited':
      return { title: r('requests.result.failedTitle'), text: r('requests.result.rateLimited'), kept: true };
    case 'refused':
      return { title: r('requests.result.failedTitle'), text: r('requests.result.refused'), kept: false };
    case 'failed':
      return { title: r('requests.result.failedTitle'), text: r('requests.result.failed'), kept: true };
  }
}

/** The outcome as the section the marker becomes: title, what happened, each error linked to its field, the phone. */
function noticeHtml(result: RequestResult, lang: Lang, fieldIds: Map<string, string>, headingLevel: 1 | 2): string {
  const { title, text, kept } = outcome(result, lang);
  const errors =
    result.kind === 'invalid'
      ? Object.entries(result.errors).map(([field, keys]) => {
          const message = escapeHtml(`${fieldLabel(field, lang)}: ${keys.map((k) => (isRequestTextKey(k) ? requestText(lang, k) : requestText(lang, 'requests.errors.invalid'))).join(' ')}`);
          const id = fieldIds.get(field);
          const link = id ? `<a class="underline" href="#${escapeHtml(encodeURIComponent(id))}">${message}</a>` : message;
          return `<li id="${REQUEST_RESULT_ID}-${escapeHtml(field.replace(/\./g, '-'))}">${link}</li>`;
        })
      : [];
  const tone = result.kind === 'sent' ? 'border-brand-600 bg-brand-50' : 'border-amber-300 bg-amber-50';
  const another = result.kind === 'sent' ? `<p><a class="font-semibold underline" href="${escapeHtml(localizedPath('/anfrage', lang))}">${escapeHtml(requestText(lang, 'requests.result.another'))}</a></p>` : '';
  return [
    `<section id="${REQUEST_RESULT_ID}" aria-labelledby="${REQUEST_RESULT_ID}-title" class="mb-6 space-y-2 rounded-lg border ${tone} p-4 text-slate-900">`,
    `<h${headingLevel} id="${REQUEST_RESULT_ID}-title" class="text-lg font-semibold">${escapeHtml(title)}</h${headingLevel}>`,
    `<p>${escapeHtml(text)}</p>`,
    errors.length ? `<ul class="list-disc space-y-1 pl-5">${errors.join('')}</ul>` : '',
    kept ? `<p>${escapeHtml(requestText(lang, 'requests.result.valuesKept'))}</p>` : '',
    another,
    result.kind === 'sent' ? '' : `<p>${escapeHtml(requestText(lang, 'requests.result.phone', { phone: practice.phone }))}</p>`,
    '</section>',
  ].join('');
}

const textareaContent = (value: string) => escapeHtml(value.startsWith('\n') ? `\n${value}` : value);
const ticked = (value: string | undefined) => value === 'on' || value === 'true' || value === '1';

/** The form's controls by name (radios: every one of the group). */
function controlsOf(form: HtmlElement): Map<string, HtmlElement[]> {
  const controls = new Map<string, HtmlElement[]>();
  for (const e of elementsOf(form)) {
    const name = attributeOf(e, 'name');
    if (!name || !FIELDS.has(name) || !['input', 'textarea', 'select'].includes(e.tagName)) continue;
    controls.set(name, [...(controls.get(name) ?? []), e]);
  }
  return controls;
}

/** Edits that put `value` into a control: a text's value, a radio or box ticked or not, a select's option. */
function fill(page: string, control: HtmlElement, value: string | undefined): HtmlEdit[] {
  const type = attributeOf(control, 'type') ?? 'text';
  const checked = (on: boolean) => (on ? setAttributes(page, control, { checked: '' }) : [removeAttribute(page, control, 'checked')].filter((e): e is HtmlEdit => e !== null));
  if (control.tagName === 'textarea') return value ? [replaceContent(control, textareaContent(value))] : [];
  if (control.tagName === 'select') {
    if (value === undefined) return [];
    return [...elementsOf(control)]
      .filter((o) => o.tagName === 'option')
      .flatMap((o) => (attributeOf(o, 'value') === value ? setAttributes(page, o, { selected: '' }) : [removeAttribute(page, o, 'selected')].filter((e): e is HtmlEdit => e !== null)));
  }
  if (type === 'radio') return value === undefined ? [] : checked(attributeOf(control, 'value') === value);
  if (type === 'checkbox') return checked(ticked(value));
  return value ? setAttributes(page, control, { value }) : [];
}

/** The built page with the outcome and the values; null when it lacks the marker or the form. */
function intoRequestPage(page: string, result: RequestResult, lang: Lang, values: FormValues): string | null {
  const document = parseWithLocations(page);
  const all = [...elementsOf(document)];
  const marker = all.find((e) => attributeOf(e, 'id') === REQUEST_RESULT_ID);
  const form = all.find((e) => e.tagName === 'form' && attributeOf(e, 'action')?.startsWith('/api/requests'));
  const title = all.find((e) => e.tagName === 'title');
  if (!marker || !form || !title) return null;
  const controls = controlsOf(form);
  const fieldIds = new Map<string, string>();
  for (const [name, list] of controls) {
    const id = attributeOf(list[0]!, 'id');
    if (id) fieldIds.set(name, id);
  }
  // An error of the medication list points at the first medication's name.
  const firstMedication = fieldIds.get('medications.0.name');
  if (firstMedication) fieldIds.set('medications', firstMedication);
  const invalid = result.kind === 'invalid' ? result.errors : {};
  const edits: HtmlEdit[] = [
    replaceContent(title, escapeHtml(`${outcome(result, lang).title} – ${useTranslations(lang)('site.name')}`)),
    { start: marker.sourceCodeLocation!.startOffset, end: marker.sourceCodeLocation!.endOffset, text: noticeHtml(result, lang, fieldIds, 2) },
  ];
  for (const [name, list] of controls) {
    const value = values[name];
    for (const control of list) {
      // A box left unticked is absent from a post: it stays unticked.
      edits.push(...fill(page, control, value));
      const errorOf = invalid[name] ? name : name === 'medications.0.name' && invalid.medications ? 'medications' : null;
      if (errorOf) {
        // The error joins the field's hint, if it has one.
        const described = [attributeOf(control, 'aria-describedby'), `${REQUEST_RESULT_ID}-${errorOf.replace(/\./g, '-')}`].filter(Boolean).join(' ');
        edits.push(...setAttributes(page, control, { 'aria-invalid': 'true', 'aria-describedby': described }));
      }
    }
  }
  return applyEdits(page, edits);
}

/** Without the built page: a plain page with the outcome and the way back to the form. */
function standalonePage(result: RequestResult, lang: Lang): string {
  const t = useTranslations(lang);
  const title = `${outcome(result, lang).title} – ${t('site.name')}`;
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1e293b;margin:0;line-height:1.5}
main{max-width:40rem;margin:0 auto;padding:3rem 1rem}
h1{color:#134e4a;font-size:1.75rem;margin:0 0 1rem}
a{color:#115e59;font-weight:600}
</style>
</head>
<body>
<main>
${noticeHtml(result, lang, new Map(), 1)}
<p><a href="${escapeHtml(localizedPath('/anfrage', lang))}">${escapeHtml(requestText(lang, 'requests.page.heading'))}</a></p>
</main>
</body>
</html>
`;
}

/** The answer page: the site's request page when `sitePage` is it, the plain page otherwise. */
export function requestAnswerHtml(result: RequestResult, lang: Lang, values: FormValues, sitePage: string | null): string {
  return (sitePage && intoRequestPage(sitePage, result, lang, values)) || standalonePage(result, lang);
}

/** The built request page in `lang`, fetched from the site; null when it cannot be had within two seconds. */
export async function fetchRequestPage(siteUrl: string, lang: Lang): Promise<string | null> {
  try {
    const response = await fetch(new URL(localizedPath('/anfrage', lang), siteUrl), { signal: AbortSignal.timeout(2000), redirect: 'follow' });
    if (!response.ok || !response.headers.get('content-type')?.includes('text/html')) throw new Error(`status ${response.status}`);
    return await response.text();
  } catch (error) {
    console.warn(`request page for the form's answer not loaded (${(error as Error).name}); answering the plain page`);
    return null;
  }
}

/**
 * The request form as the server renders it, for a browser without
 * JavaScript (docs/decisions/036-patient-requests.md,
 * docs/decisions/040-pages-without-javascript-and-repeated-requests.md): the
 * site's own request page, as built (page-answer.server.ts: the bundle's
 * copy, parsed at the build, or fetched from SITE_URL), made to say what
 * the practice says now:
 *
 * - only the kinds it takes (the others' choices and sections removed; none
 *   left: the form gives way to "please call us"), and its notice;
 * - after a post, the outcome in place of the page's marker: received
 *   (with the reference, shown by GET after the post's 303), or bad input
 *   with an error summary whose every entry links to its field, the fields
 *   and radio groups marked, and what was typed and chosen put back.
 *
 * The static page sends a browser without JavaScript here (a <noscript>
 * refresh, which this page drops). Should the page not load, a plain page
 * with the same outcome answers. Values are escaped wherever they go; a
 * post refused by the Origin check gets nothing echoed back.
 */
import { timingSafeEqual } from 'node:crypto';
import { localizedPath, useTranslations, type Lang } from '../../i18n/i18n';
import type { FieldErrors } from '../../lib/errors';
import { fieldMessage } from '../../lib/field-message';
import { escapeHtml } from '../../lib/html';
import { applyEdits, attributeOf, elementsOf, removeAttribute, replaceContent, setAttributes, type HtmlEdit, type HtmlElement } from '../../lib/html-edits';
import { parseWithLocations } from '../../lib/html-parse';
import { practice } from '../../lib/practice';
import { REQUEST_FORM_FIELDS, REQUEST_FORM_PAGE } from '../../lib/request-form';
import { REQUEST_KINDS, REQUEST_RESULT_ID, type RequestKind } from '../../lib/request-kinds';
import { isRequestTextKey, requestText, type RequestTextKey } from '../../lib/request-texts';
import { markInvalid, outcomeHtml, plainPage, summaryItemId, textareaContent, ticked, type SummaryError } from '../page-answer.server';
import { keyedHash } from '../server-key.server';
import type { RequestSettings } from './settings.server';

export type RequestResult =
  | { kind: 'sent'; reference: string }
  /** Errors by the form's field names. */
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'closed'; requestKind: RequestKind }
  | { kind: 'rate-limited' }
  | { kind: 'refused' }
  | { kind: 'failed' };

type FormValues = Record<string, string>;

export interface RequestPage {
  lang: Lang;
  /** What a post came to; null for the form itself. */
  result: RequestResult | null;
  /** What to put back into the form (valuesToKeep). */
  values: FormValues;
  /** The practice's switches and notice; null when they could not be read (every kind offered, no notice, as the page's script does). */
  settings: RequestSettings | null;
}

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

/** What a summary entry says: the field's label and its messages, without doubled punctuation. */
export function errorText(field: string, keys: string[], lang: Lang): string {
  const message = keys.map((k) => requestText(lang, isRequestTextKey(k) ? k : 'requests.errors.invalid')).join(' ');
  return fieldMessage(fieldLabel(field, lang), message);
}

type Shown = RequestResult | { kind: 'all-closed' } | { kind: 'unavailable' };

function outcome(result: Shown, lang: Lang): { title: string; text: string; kept: boolean } {
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
    case 'all-closed':
      return { title: r('requests.page.heading'), text: r('requests.closed.all'), kept: false };
    case 'unavailable':
      return { title: r('requests.page.heading'), text: r('requests.page.unavailable'), kept: false };
  }
}

/** The outcome as the section the marker becomes: title, what happened, each error linked to its field, the phone. */
function noticeHtml(result: Shown, lang: Lang, fieldIds: Map<string, string>, headingLevel: 1 | 2): string {
  const { title, text, kept } = outcome(result, lang);
  const errors: SummaryError[] =
    result.kind === 'invalid' ? Object.entries(result.errors).map(([field, keys]) => ({ field, text: errorText(field, keys, lang), target: fieldIds.get(field) })) : [];
  const another =
    result.kind === 'sent'
      ? `<p><a class="font-semibold underline" href="${escapeHtml(localizedPath(REQUEST_FORM_PAGE, lang))}">${escapeHtml(requestText(lang, 'requests.result.another'))}</a></p>`
      : '';
  return outcomeHtml({
    id: REQUEST_RESULT_ID,
    headingLevel,
    success: result.kind === 'sent',
    title,
    paragraphs: [text],
    errors,
    html: [
      kept ? `<p>${escapeHtml(requestText(lang, 'requests.result.valuesKept'))}</p>` : '',
      another,
      result.kind === 'sent' ? '' : `<p>${escapeHtml(requestText(lang, 'requests.result.phone', { phone: practice.phone }))}</p>`,
    ].join(''),
  });
}

/** The form's controls by name (radios: every one of the group). */
function controlsOf(form: HtmlElement, removed: (e: HtmlElement) => boolean): Map<string, HtmlElement[]> {
  const controls = new Map<string, HtmlElement[]>();
  for (const e of elementsOf(form, removed)) {
    const name = attributeOf(e, 'name');
    if (removed(e) || !name || !FIELDS.has(name) || !['input', 'textarea', 'select'].includes(e.tagName)) continue;
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

const whole = (e: HtmlElement, text = ''): HtmlEdit => ({ start: e.sourceCodeLocation!.startOffset, end: e.sourceCodeLocation!.endOffset, text });

/** The built page as the practice's settings and the outcome have it; null when it lacks the marker or the form. */
function intoRequestPage(page: string, { lang, result, values, settings }: RequestPage): string | null {
  const document = parseWithLocations(page);
  const all = [...elementsOf(document)];
  const marker = all.find((e) => attributeOf(e, 'id') === REQUEST_RESULT_ID);
  const form = all.find((e) => e.tagName === 'form' && attributeOf(e, 'action')?.startsWith('/api/requests'));
  const title = all.find((e) => e.tagName === 'title');
  if (!marker || !form || !title) return null;

  const closed = new Set(REQUEST_KINDS.filter((kind) => settings && !settings[kind]));
  const allClosed = closed.size === REQUEST_KINDS.length;
  // The kinds not taken now: their choice and their section go; with none left, the form goes.
  const gone = allClosed
    ? [form]
    : all.filter((e) => closed.has(attributeOf(e, 'data-kind-option') as RequestKind) || closed.has(attributeOf(e, 'data-section') as RequestKind));
  const removed = (e: HtmlElement) => gone.includes(e);
  const edits: HtmlEdit[] = gone.map((e) => whole(e));
  // The static page's redirect of a browser without JavaScript (to this page) is not for this page.
  for (const e of all.filter((e) => e.tagName === 'noscript' && attributeOf(e, 'data-no-script-redirect') !== undefined)) edits.push(whole(e));

  const notice = settings && (lang === 'en' ? settings.notice_en : settings.notice_de);
  const aside = all.find((e) => attributeOf(e, 'data-request-notice') !== undefined);
  const noticeText = aside && [...elementsOf(aside)].find((e) => attributeOf(e, 'data-request-notice-text') !== undefined);
  if (notice && aside && noticeText) {
    edits.push(...[removeAttribute(page, aside, 'hidden')].filter((e): e is HtmlEdit => e !== null), replaceContent(noticeText, escapeHtml(notice)));
  }

  const controls = allClosed ? new Map<string, HtmlElement[]>() : controlsOf(form, removed);
  const fieldIds = new Map<string, string>();
  for (const [name, list] of controls) {
    const id = list.map((c) => attributeOf(c, 'id')).find(Boolean);
    if (id) fieldIds.set(name, id);
  }
  // An error of the medication list points at the first medication's name.
  const firstMedication = fieldIds.get('medications.0.name');
  if (firstMedication) fieldIds.set('medications', firstMedication);

  const shown: Shown | null = allClosed && result?.kind !== 'sent' ? { kind: 'all-closed' } : result;
  if (shown) {
    edits.push(replaceContent(title, escapeHtml(`${outcome(shown, lang).title} – ${useTranslations(lang)('site.name')}`)), whole(marker, noticeHtml(shown, lang, fieldIds, 2)));
  }

  const invalid = result?.kind === 'invalid' ? result.errors : {};
  for (const [name, list] of controls) {
    // A box left unticked is absent from a post: it stays unticked.
    for (const control of list) edits.push(...fill(page, control, values[name]));
    const errorOf = invalid[name] ? name : name === 'medications.0.name' && invalid.medications ? 'medications' : null;
    if (!errorOf) continue;
    const describedBy = summaryItemId(REQUEST_RESULT_ID, errorOf);
    // A radio group is marked as the group (its fieldset, whose legend names it), as GOV.UK does; each other control itself.
    const group = list.some((c) => attributeOf(c, 'type') === 'radio') && all.find((e) => e.tagName === 'fieldset' && attributeOf(e, 'data-field') === name);
    if (group) edits.push(...markInvalid(page, group, describedBy));
    else for (const control of list) edits.push(...markInvalid(page, control, describedBy));
  }
  return applyEdits(page, edits);
}

/** Without the built page: a plain page with the outcome and the way back to the form. */
function standalonePage({ lang, result }: RequestPage): string {
  const t = useTranslations(lang);
  const shown: Shown = result ?? { kind: 'unavailable' };
  const body = `${noticeHtml(shown, lang, new Map(), 1)}
<p><a href="${escapeHtml(localizedPath(REQUEST_FORM_PAGE, lang))}">${escapeHtml(requestText(lang, 'requests.page.heading'))}</a></p>`;
  return plainPage(lang, `${outcome(shown, lang).title} – ${t('site.name')}`, body);
}

/** The page: the site's request page when `sitePage` is it, the plain page otherwise. */
export function requestPageHtml(input: RequestPage, sitePage: string | null): string {
  return (sitePage && intoRequestPage(sitePage, input)) || standalonePage(input);
}

/** A form post's answer (the page with the outcome and what was typed), for tests and callers that know no settings. */
export function requestAnswerHtml(result: RequestResult, lang: Lang, values: FormValues, sitePage: string | null, settings: RequestSettings | null = null): string {
  return requestPageHtml({ lang, result, values, settings }, sitePage);
}

/**
 * The received page's address after a form post (its 303): the form page
 * with the reference and a tag that only this server can make (an HMAC
 * under the server key), so nobody can send a patient a page saying a
 * request arrived. Never anything the patient entered.
 */
export function sentPageLocation(reference: string, lang: Lang): string {
  const query = new URLSearchParams({ sent: reference, tag: sentTag(reference) });
  return `${localizedPath(REQUEST_FORM_PAGE, lang)}?${query}#${REQUEST_RESULT_ID}`;
}

const sentTag = (reference: string) => keyedHash('request-sent-page', reference).slice(0, 32);

/** The reference a received page's address carries, when its tag is this server's; null otherwise. */
export function sentReferenceOf(query: Record<string, string>): string | null {
  const { sent, tag } = query;
  if (!sent || !tag || !/^[2-9A-HJKMNP-Z]{6}$/.test(sent) || !/^[0-9a-f]{32}$/.test(tag)) return null;
  return timingSafeEqual(Buffer.from(tag), Buffer.from(sentTag(sent))) ? sent : null;
}

/**
 * The answer to the link page's cancel form without JavaScript
 * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md):
 * the link page itself (/termin/absagen, /en/termin/absagen, as built and
 * fetched from the site, page-answer.server.ts) saying how it went, in
 * place of its <noscript> part:
 *
 * - done, or nothing more to do (already cancelled by the patient or by the
 *   practice, begun, an unknown or incomplete link): the outcome with the
 *   appointment where it is known, the phone where a call helps, and the
 *   way to book again; the form is gone;
 * - to be tried again (the box not ticked, a post from elsewhere, the
 *   server unable): the outcome above the same form, the box marked and
 *   linked from the error summary.
 *
 * The page's island stays hidden by the page's own <noscript> style, as on
 * the page itself. Nothing of the link's token is written into the page.
 */
import { localizedPath, useTranslations, type Lang } from '../../i18n/i18n';
import { CANCEL_NO_SCRIPT_ID, CANCEL_RESULT_ID } from '../../lib/cancellation-token';
import { formatLongDate } from '../../lib/dates';
import { fieldMessage } from '../../lib/field-message';
import { escapeHtml } from '../../lib/html';
import { applyEdits, attributeOf, elementsOf, replaceContent, type HtmlEdit, type HtmlElement } from '../../lib/html-edits';
import { parseWithLocations } from '../../lib/html-parse';
import { practice, telHref } from '../../lib/practice';
import { localizedTypeName } from '../../lib/type-text';
import { markInvalid, outcomeHtml, plainPage, summaryItemId, type SummaryError } from '../page-answer.server';

/** What the page says of the appointment: as the API's 410 bodies carry it. */
export interface CancelledAppointment {
  type_name: string;
  type_name_en: string | null;
  appointment_date: string;
  appointment_time: string;
  reference: string;
}

export type CancelResult =
  | { kind: 'cancelled'; appointment: CancelledAppointment }
  | { kind: 'cancelled-by-patient'; appointment: CancelledAppointment }
  | { kind: 'cancelled-by-practice'; appointment: CancelledAppointment }
  | { kind: 'too-late' }
  | { kind: 'unknown' }
  | { kind: 'incomplete' }
  | { kind: 'unconfirmed' }
  | { kind: 'refused' }
  | { kind: 'failed' };

/** The form's one field: the box that confirms the cancellation. */
export const CONFIRM_FIELD = 'confirm';
const CONFIRM_ID = 'cancel-confirm';

/** Outcomes after which the form is offered again. */
const RETRY = new Set<CancelResult['kind']>(['unconfirmed', 'refused', 'failed']);

type T = ReturnType<typeof useTranslations>;

function words(result: CancelResult, t: T): { title: string; text: string[]; call: boolean; bookNew: boolean } {
  switch (result.kind) {
    case 'cancelled':
      return { title: t('cancel.heading.cancelled'), text: [t('cancel.doneText')], call: false, bookNew: true };
    case 'cancelled-by-patient':
      return { title: t('cancel.byPatientTitle'), text: [t('cancel.alreadyCancelled')], call: false, bookNew: true };
    case 'cancelled-by-practice':
      return { title: t('cancel.byPracticeTitle'), text: [t('cancel.byPractice')], call: true, bookNew: true };
    case 'too-late':
      return { title: t('cancel.heading.tooLate'), text: [t('cancel.tooLate')], call: true, bookNew: false };
    case 'unknown':
      return { title: t('cancel.heading.invalid'), text: [t('cancel.notFound')], call: true, bookNew: true };
    case 'incomplete':
      return { title: t('cancel.heading.incomplete'), text: [t('cancel.missingToken')], call: true, bookNew: false };
    case 'unconfirmed':
      return { title: t('noScript.cancel.invalidTitle'), text: [], call: false, bookNew: false };
    case 'refused':
      return { title: t('noScript.cancel.failedTitle'), text: [t('noScript.cancel.refused')], call: true, bookNew: false };
    case 'failed':
      return { title: t('noScript.cancel.failedTitle'), text: [t('noScript.cancel.failed')], call: true, bookNew: false };
  }
}

/** The appointment as a list: reference, type, date, time (as the island's AppointmentDetails). */
function detailsHtml(a: CancelledAppointment, lang: Lang, t: T): string {
  const name = localizedTypeName(a.type_name, a.type_name_en, lang);
  const rows: Array<[string, string, string?]> = [
    [t('success.reference'), `<span class="font-mono font-semibold tracking-wider">${escapeHtml(a.reference)}</span>`],
    [t('summary.type'), escapeHtml(name.text), name.lang],
    [t('summary.date'), escapeHtml(formatLongDate(a.appointment_date, lang))],
    [t('summary.time'), escapeHtml(t('datetime.time', { time: a.appointment_time }))],
  ];
  const items = rows.map(([label, value, valueLang]) => `<dt class="text-sm text-slate-600">${escapeHtml(label)}</dt><dd class="mb-2 font-medium text-slate-900"${valueLang ? ` lang="${valueLang}"` : ''}>${value}</dd>`);
  return `<dl class="mb-2">${items.join('')}</dl>`;
}

function sectionHtml(result: CancelResult, lang: Lang, headingLevel: 1 | 2): string {
  const t = useTranslations(lang);
  const { title, text, call, bookNew } = words(result, t);
  const errors: SummaryError[] =
    result.kind === 'unconfirmed'
      ? [{ field: CONFIRM_FIELD, text: fieldMessage(t('noScript.cancel.confirmShort'), t('noScript.cancel.confirmRequired')), target: CONFIRM_ID }]
      : [];
  const appointment = 'appointment' in result ? detailsHtml(result.appointment, lang, t) : '';
  const callUs = call
    ? `<p>${escapeHtml(t('cancel.callUs'))} <a class="font-semibold whitespace-nowrap text-brand-800 underline" href="${escapeHtml(telHref(practice.phone))}">${escapeHtml(practice.phone)}</a></p>`
    : '';
  const again = bookNew
    ? `<p><a class="mt-2 inline-block rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800" href="${escapeHtml(localizedPath('/termin', lang))}">${escapeHtml(t('cancel.bookNew'))}</a></p>`
    : '';
  // The appointment first, then what became of it (the island's order).
  const html = outcomeHtml({ id: CANCEL_RESULT_ID, headingLevel, success: result.kind === 'cancelled', title, paragraphs: [], errors, html: `${appointment}${text.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}${callUs}${again}` });
  return html;
}

const whole = (e: HtmlElement, text = ''): HtmlEdit => ({ start: e.sourceCodeLocation!.startOffset, end: e.sourceCodeLocation!.endOffset, text });

/** The built link page with the outcome; null when it lacks its <noscript> part. */
function intoCancelPage(page: string, result: CancelResult, lang: Lang): string | null {
  const t = useTranslations(lang);
  // Read as a browser without JavaScript reads it: the <noscript> part's content is elements.
  const all = [...elementsOf(parseWithLocations(page, { scripting: false }))];
  const part = all.find((e) => e.tagName === 'noscript' && attributeOf(e, 'id') === CANCEL_NO_SCRIPT_ID);
  const title = all.find((e) => e.tagName === 'title');
  if (!part || !title) return null;
  const inside = [...elementsOf(part)];
  const marker = inside.find((e) => attributeOf(e, 'id') === CANCEL_RESULT_ID);
  const box = inside.find((e) => attributeOf(e, 'id') === CONFIRM_ID);
  const { title: heading } = words(result, t);
  const edits: HtmlEdit[] = [replaceContent(title, escapeHtml(`${heading} – ${t('site.name')}`))];
  if (!RETRY.has(result.kind) || !marker) {
    edits.push(whole(part, sectionHtml(result, lang, 1)));
  } else {
    // The form again, no longer inside <noscript> (this answer is for a browser without JavaScript), the outcome above it.
    const at = part.sourceCodeLocation!;
    edits.push({ start: at.startTag!.startOffset, end: at.startTag!.endOffset, text: '<div>' }, { start: at.endTag!.startOffset, end: at.endTag!.endOffset, text: '</div>' });
    edits.push(whole(marker, sectionHtml(result, lang, 2)));
    if (result.kind === 'unconfirmed' && box) edits.push(...markInvalid(page, box, summaryItemId(CANCEL_RESULT_ID, CONFIRM_FIELD)));
  }
  return applyEdits(page, edits);
}

/** Without the built page: a plain page with the outcome (and the form, where it may be tried again). */
function standalonePage(result: CancelResult, lang: Lang): string {
  const t = useTranslations(lang);
  const form = RETRY.has(result.kind)
    ? `<form method="post"><p><label for="${CONFIRM_ID}"><input type="checkbox" id="${CONFIRM_ID}" name="${CONFIRM_FIELD}" required> ${escapeHtml(t('noScript.cancel.confirm'))}</label></p><p><button type="submit">${escapeHtml(t('cancel.confirm'))}</button></p></form>`
    : '';
  return plainPage(lang, `${words(result, t).title} – ${t('site.name')}`, `${sectionHtml(result, lang, 1)}${form}`);
}

/** The answer page: the site's link page when `sitePage` is it, the plain page otherwise. */
export function cancelAnswerHtml(result: CancelResult, lang: Lang, sitePage: string | null): string {
  return (sitePage && intoCancelPage(sitePage, result, lang)) || standalonePage(result, lang);
}

/**
 * The one way a plain form post without JavaScript is answered
 * (docs/architecture.md, Pages without JavaScript;
 * docs/decisions/040-pages-without-javascript-and-repeated-requests.md): the
 * site's own page, as built, with the outcome in place of the page's
 * marker. The functions' bundle carries the page, already parsed, from the
 * same build (built-pages/); without a copy (the local server, tests) it is
 * fetched from SITE_URL. The contact form
 * (contact-result.server.ts), the request form
 * (requests/form-answer.server.ts) and the cancellation link's page
 * (bookings/cancel-answer.server.ts) build their answers from these parts.
 *
 * The outcome is a section with its heading, what happened and, for bad
 * input, an error summary after GOV.UK's pattern: every error names its
 * field and links to it (a radio group's first radio), and the field (or
 * the group) is marked invalid and described by its error. Values are
 * escaped wherever they go.
 */
import type { Lang } from '../i18n/languages';
import { escapeHtml } from '../lib/html';
import { attributeOf, setAttributes, type HtmlEdit, type HtmlElement } from '../lib/html-edits';
import { loadHtmlParser } from '../lib/html-parse';
import { rememberParsed, treeFromCompact } from '../lib/html-tree';
import type { BuiltPageSet } from './built-pages/built-page';

/** One entry of an error summary. */
export interface SummaryError {
  /** The field's name in the form (for the item's id). */
  field: string;
  /** What the summary says: the field's label and the message (src/lib/field-message.ts). */
  text: string;
  /** The id of the control the entry links to; without one the entry is plain text. */
  target?: string;
}

export interface Outcome {
  /** The section's id: the page's marker it replaces. */
  id: string;
  headingLevel: 1 | 2 | 3;
  /** A success is framed green, anything else amber. */
  success: boolean;
  title: string;
  /** Plain text, each a paragraph. */
  paragraphs: string[];
  errors?: SummaryError[];
  /** Markup after the paragraphs, escaped by its maker (links, details). */
  html?: string;
}

/** The id of a summary entry, which its field names as its description. */
export const summaryItemId = (sectionId: string, field: string) => `${sectionId}-${field.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The outcome as the section that takes the marker's place. */
export function outcomeHtml(o: Outcome): string {
  const errors = (o.errors ?? []).map((e) => {
    const text = escapeHtml(e.text);
    const item = e.target ? `<a class="underline" href="#${escapeHtml(encodeURIComponent(e.target))}">${text}</a>` : text;
    return `<li id="${escapeHtml(summaryItemId(o.id, e.field))}">${item}</li>`;
  });
  const tone = o.success ? 'border-brand-600 bg-brand-50' : 'border-amber-300 bg-amber-50';
  return [
    `<section id="${escapeHtml(o.id)}" aria-labelledby="${escapeHtml(o.id)}-title" class="mb-6 space-y-2 rounded-lg border ${tone} p-4 text-slate-900">`,
    `<h${o.headingLevel} id="${escapeHtml(o.id)}-title" class="${o.headingLevel === 1 ? 'text-2xl font-bold' : 'text-lg font-semibold'}">${escapeHtml(o.title)}</h${o.headingLevel}>`,
    ...o.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    errors.length ? `<ul class="list-disc space-y-1 pl-5">${errors.join('')}</ul>` : '',
    o.html ?? '',
    '</section>',
  ].join('');
}

/**
 * Edits that mark a control, or a radio group's fieldset, invalid and
 * described by its summary entry, keeping the description it has (a hint).
 */
export function markInvalid(page: string, element: HtmlElement, describedBy: string): HtmlEdit[] {
  return setAttributes(page, element, invalidAttributes(element, describedBy));
}

/** The attributes markInvalid sets, for a caller that sets others on the same element in one edit. */
export function invalidAttributes(element: HtmlElement, describedBy: string): Record<string, string> {
  return { 'aria-invalid': 'true', 'aria-describedby': [attributeOf(element, 'aria-describedby'), describedBy].filter(Boolean).join(' ') };
}

/** The value a textarea shows: a leading newline would be eaten by the parser, so it gets one more. */
export const textareaContent = (value: string) => escapeHtml(value.startsWith('\n') ? `\n${value}` : value);

/** A posted box counts as ticked for any of the values browsers and scripts send. */
export const ticked = (value: string | undefined) => value === 'on' || value === 'true' || value === '1';

/**
 * The built page at `path`: the bundle's copy in `pages`, its tree kept so
 * that nothing parses it (html-tree.ts); else fetched from the site, with
 * the parser loaded to read it; null when it cannot be had within two
 * seconds (the answer is then a plain page of its own).
 */
export async function fetchSitePage(siteUrl: string, path: string, pages?: BuiltPageSet): Promise<string | null> {
  const load = pages?.bundled[path];
  if (load) {
    try {
      const page = (await load()).default;
      rememberParsed(page.html, page.scripting, () => treeFromCompact(page.tree));
      return page.html;
    } catch (error) {
      console.warn(`bundled page ${path} not loaded (${(error as Error).name}); fetching it from the site`);
    }
  }
  try {
    const response = await fetch(new URL(path, siteUrl), { signal: AbortSignal.timeout(2000), redirect: 'follow' });
    if (!response.ok || !response.headers.get('content-type')?.includes('text/html')) throw new Error(`status ${response.status}`);
    const [page] = await Promise.all([response.text(), loadHtmlParser()]);
    return page;
  } catch (error) {
    // The path names a page, never a value (its query is not sent).
    console.warn(`page ${path} for a form's answer not loaded (${(error as Error).name}); answering the plain page`);
    return null;
  }
}

/** A plain page of its own, for when the site's page cannot be had: the outcome and the way on, in the site's colours. */
export function plainPage(lang: Lang, title: string, body: string): string {
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
input,textarea{width:100%;box-sizing:border-box;font:inherit;padding:.4rem}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * Small, exact changes to a finished HTML page: parse5 finds the elements
 * (with their source offsets, html-parse.ts), and the changes are spliced
 * into the original text, so every other byte stays as it was (a built
 * page's script hashes, an island's props). Used at build time
 * (german-hyphenation.ts) and by the answers to form posts without
 * JavaScript (src/server/page-answer.server.ts). The parser itself is apart,
 * so code that only edits or reads elements never loads it.
 */
import type { DefaultTreeAdapterMap } from 'parse5';
import { escapeHtml } from './html';

export type HtmlNode = DefaultTreeAdapterMap['node'];
export type HtmlElement = DefaultTreeAdapterMap['element'];

/** Replace `[start, end)` of the page with `text`. */
export interface HtmlEdit {
  start: number;
  end: number;
  text: string;
}

export const isElement = (node: HtmlNode): node is HtmlElement => 'tagName' in node;

export const attributeOf = (element: HtmlElement, name: string): string | undefined => element.attrs.find((a) => a.name === name)?.value;

/** Every element below `node`, depth first, skipping the inside of those `skip` says. */
export function* elementsOf(node: HtmlNode, skip: (element: HtmlElement) => boolean = () => false): Generator<HtmlElement> {
  if (!('childNodes' in node)) return;
  for (const child of node.childNodes) {
    if (!isElement(child)) continue;
    yield child;
    if (!skip(child)) yield* elementsOf(child, skip);
  }
}

/** The page with the edits made (they must not overlap). */
export function applyEdits(html: string, edits: HtmlEdit[]): string {
  let out = html;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/**
 * Edits that give an element these attributes (values escaped here): an
 * attribute it has is rewritten in place, the others are added to its start tag.
 */
export function setAttributes(html: string, element: HtmlElement, attributes: Record<string, string>): HtmlEdit[] {
  const location = element.sourceCodeLocation!;
  const edits: HtmlEdit[] = [];
  const added: string[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    const text = `${name}="${escapeHtml(value)}"`;
    const existing = location.attrs?.[name];
    if (existing) edits.push({ start: existing.startOffset, end: existing.endOffset, text });
    else added.push(text);
  }
  if (added.length) {
    const end = location.startTag!.endOffset;
    const at = html.slice(end - 2, end) === '/>' ? end - 2 : end - 1;
    edits.push({ start: at, end: at, text: ` ${added.join(' ')}` });
  }
  return edits;
}

/** An edit that replaces everything between an element's start and end tags. */
export function replaceContent(element: HtmlElement, text: string): HtmlEdit {
  const location = element.sourceCodeLocation!;
  return { start: location.startTag!.endOffset, end: location.endTag!.startOffset, text };
}

/** An edit that removes an attribute from an element's start tag (with the space before it); null when it has none. */
export function removeAttribute(html: string, element: HtmlElement, name: string): HtmlEdit | null {
  const at = element.sourceCodeLocation?.attrs?.[name];
  if (!at) return null;
  let start = at.startOffset;
  while (start > 0 && /\s/.test(html[start - 1]!)) start--;
  return { start, end: at.endOffset, text: '' };
}

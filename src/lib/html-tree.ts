/**
 * A parsed page's element tree in a compact form that JSON carries, and
 * back. The functions' bundle carries the pages that answers to form posts
 * without JavaScript are made from already parsed
 * (src/server/built-pages/, docs/decisions/040-pages-without-javascript-and-repeated-requests.md),
 * so an answer edits its page without loading or running the parser. Only
 * what the edits read survives (html-edits.ts): elements (no text or
 * comments), their names and attributes, and the source offsets of the
 * element, its start and end tags and its attributes.
 */
import type { DefaultTreeAdapterMap } from 'parse5';
import { isElement, type HtmlElement, type HtmlNode } from './html-edits';

type Document = DefaultTreeAdapterMap['document'];
type Location = NonNullable<HtmlElement['sourceCodeLocation']>;

/** [start, end, start tag's end, end tag's start, end tag's end] (-1: no end tag), or 0 without a location (an implied element). */
type CompactLocation = [number, number, number, number, number] | 0;

/** [tag name, attributes as [name, value], location, each located attribute's [start, end], children]. */
export type CompactElement = [string, Array<[string, string]>, CompactLocation, Record<string, [number, number]>, CompactElement[]];

const childElements = (node: HtmlNode): HtmlElement[] => ('childNodes' in node ? node.childNodes.filter(isElement) : []);

function compactElement(element: HtmlElement): CompactElement {
  const at = element.sourceCodeLocation;
  const location: CompactLocation = at ? [at.startOffset, at.endOffset, at.startTag?.endOffset ?? at.startOffset, at.endTag?.startOffset ?? -1, at.endTag?.endOffset ?? -1] : 0;
  const attributes = Object.fromEntries(Object.entries(at?.attrs ?? {}).map(([name, a]) => [name, [a.startOffset, a.endOffset] as [number, number]]));
  return [element.tagName, element.attrs.map((a) => [a.name, a.value]), location, attributes, childElements(element).map(compactElement)];
}

/** The document's elements, compact. */
export const compactTree = (document: Document): CompactElement[] => childElements(document).map(compactElement);

const offsets = (startOffset: number, endOffset: number) => ({ startOffset, endOffset, startLine: 0, startCol: 0, endLine: 0, endCol: 0 });

function elementOf([tagName, attrs, at, attributes, children]: CompactElement): HtmlElement {
  let location: Location | null = null;
  if (at) {
    const [start, end, startTagEnd, endTagStart, endTagEnd] = at;
    location = {
      ...offsets(start, end),
      startTag: offsets(start, startTagEnd),
      endTag: endTagStart < 0 ? undefined : offsets(endTagStart, endTagEnd),
      attrs: Object.fromEntries(Object.entries(attributes).map(([name, [s, e]]) => [name, offsets(s, e)])),
    };
  }
  const element = { nodeName: tagName, tagName, attrs: attrs.map(([name, value]) => ({ name, value })), sourceCodeLocation: location, childNodes: children.map(elementOf) };
  return element as unknown as HtmlElement;
}

/** A document holding the compact tree's elements, as html-edits.ts walks it. */
export function treeFromCompact(tree: CompactElement[]): Document {
  return { nodeName: '#document', childNodes: tree.map(elementOf) } as unknown as Document;
}

/** Trees that came with their pages, by the page's exact text. */
const remembered = { scripting: new Map<string, Document>(), noScripting: new Map<string, Document>() };
const treesRead = (scripting: boolean) => (scripting ? remembered.scripting : remembered.noScripting);

/**
 * Keeps the tree of exactly `html` read with `scripting` (made by `tree`,
 * once): html-parse.ts answers it for that text instead of parsing. Any
 * other text, even one character apart, is parsed.
 */
export function rememberParsed(html: string, scripting: boolean, tree: () => Document): void {
  const trees = treesRead(scripting);
  if (!trees.has(html)) trees.set(html, tree());
}

/** The remembered tree of exactly this text, if any. */
export const parsedBefore = (html: string, scripting: boolean): Document | undefined => treesRead(scripting).get(html);

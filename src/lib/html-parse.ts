/**
 * A finished HTML page's tree with each node's source offsets, for the
 * exact edits of html-edits.ts. parse5 (about 170 KB) is loaded by
 * `loadHtmlParser`, only where a page must be parsed: a page that came
 * with its tree (html-tree.ts, the functions' bundled pages) is not.
 */
import type { DefaultTreeAdapterMap } from 'parse5';
import { parsedBefore } from './html-tree';

type Parse5 = typeof import('parse5');
let parser: Parse5 | undefined;

/** Loads the parser, once; parseWithLocations needs it for any page whose tree it was not given. */
export async function loadHtmlParser(): Promise<void> {
  parser ??= await import('parse5');
}

/**
 * The page's tree with each node's source offsets. `scripting: false` reads
 * it as a browser without JavaScript does: a <noscript>'s content is
 * elements, not text. A page whose tree came with it is not parsed again;
 * any other needs loadHtmlParser() first.
 */
export function parseWithLocations(html: string, { scripting = true }: { scripting?: boolean } = {}): DefaultTreeAdapterMap['document'] {
  const known = parsedBefore(html, scripting);
  if (known) return known;
  if (!parser) throw new Error('the HTML parser is not loaded: await loadHtmlParser() first');
  return parser.parse(html, { sourceCodeLocationInfo: true, scriptingEnabled: scripting });
}

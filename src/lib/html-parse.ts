/**
 * A finished HTML page's tree with each node's source offsets, for the
 * exact edits of html-edits.ts. Apart from them so that a function loads
 * parse5 (about 180 KB) only where it parses a page.
 */
import { parse } from 'parse5';

/**
 * The page's tree with each node's source offsets. `scripting: false` reads
 * it as a browser without JavaScript does: a <noscript>'s content is
 * elements, not text.
 */
export const parseWithLocations = (html: string, { scripting = true }: { scripting?: boolean } = {}) =>
  parse(html, { sourceCodeLocationInfo: true, scriptingEnabled: scripting });

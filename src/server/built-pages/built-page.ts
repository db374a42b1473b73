/**
 * Pages of the site that answers to form posts without JavaScript are made
 * from (src/server/page-answer.server.ts), as the functions' bundle carries
 * them: the built page and its element tree, parsed at the build
 * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md).
 *
 * Each set in this folder names its pages; scripts/bundle-functions.ts
 * fills its `bundled` in from the built site (dist/), one chunk per page,
 * loaded by the answer that needs it. Outside a bundle (the local server,
 * tests) and for a page the build did not make, `bundled` has no entry and
 * the page is fetched from the site (and parsed).
 */
import type { CompactElement } from '../../lib/html-tree';

export interface BuiltPage {
  /** The page as built, byte for byte. */
  html: string;
  /** How the tree was read (html-parse.ts). */
  scripting: boolean;
  tree: CompactElement[];
}

export interface BuiltPageSet {
  /** The pages' paths, as the site serves them. */
  paths: string[];
  /** Whether the answers read these pages as a browser with scripting does (a <noscript>'s content as text). */
  scripting: boolean;
  /** By path: the built page's chunk (in the functions' bundle only). */
  bundled: Record<string, () => Promise<{ default: BuiltPage }>>;
}

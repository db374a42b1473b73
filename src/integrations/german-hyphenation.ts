/**
 * Build step: soft hyphens in the long words of German
 * headings, so a phone never cuts "Laboruntersuchungen" mid-word without a
 * hyphen. Headings ask for `hyphens: auto` (global.css), which needs the
 * browser's own German dictionary; several browsers have none (Chromium on
 * Linux and some Android builds), and `overflow-wrap: break-word` then cuts a
 * word that does not fit anywhere. A soft hyphen (U+00AD) is invisible until
 * a line breaks at it, and then shows as a hyphen, in every browser.
 *
 * The syllables come from the TeX patterns of the `hyphen` package at build
 * time: no script reaches the pages. Only the text of h1–h6 in German (the
 * page's language, or an element's own lang) changes; islands are left alone
 * (React hydrates them against its own rendering), and every other byte of
 * the page stays as Astro wrote it (the text is spliced in place, not
 * re-serialised), so the script hashes written after this step still match.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
// A CommonJS module: its functions are properties of the default export.
import hyphenDe from 'hyphen/de';
import { parse } from 'parse5';
import { applyEdits, attributeOf, isElement, type HtmlEdit, type HtmlElement, type HtmlNode } from '../lib/html-edits';
import { htmlFiles } from './inline-script-csp';

const HEADING = /^h[1-6]$/;
/** Words shorter than this fit any heading line on a 320 px screen. */
const MIN_WORD_LENGTH = 8;

const SKIPPED = ['astro-island', 'script', 'style', 'template', 'noscript'];
const langOf = (element: HtmlElement, inherited: string) => attributeOf(element, 'lang')?.toLowerCase() || inherited;

/** The page with soft hyphens in the long words of its German headings. */
export function hyphenateGermanHeadings(html: string): string {
  const edits: HtmlEdit[] = [];
  const visit = (node: HtmlNode, lang: string, inHeading: boolean) => {
    if (node.nodeName === '#text') {
      const location = 'sourceCodeLocation' in node ? node.sourceCodeLocation : undefined;
      if (!inHeading || !lang.startsWith('de') || !location) return;
      const source = html.slice(location.startOffset, location.endOffset);
      const text = hyphenDe.hyphenateSync(source, { minWordLength: MIN_WORD_LENGTH });
      if (text !== source) edits.push({ start: location.startOffset, end: location.endOffset, text });
      return;
    }
    if (!('childNodes' in node)) return;
    const element = isElement(node) ? node : null;
    if (element && SKIPPED.includes(element.tagName)) return;
    const own = element ? langOf(element, lang) : lang;
    for (const child of node.childNodes) visit(child, own, inHeading || (element !== null && HEADING.test(element.tagName)));
  };
  // Parsed here, at the build (Astro's module runner is closed when the hook runs, so no import() then).
  visit(parse(html, { sourceCodeLocationInfo: true }), '', false);
  return applyEdits(html, edits);
}

export default function germanHyphenation(): AstroIntegration {
  return {
    name: 'german-hyphenation',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        let changed = 0;
        for (const file of await htmlFiles(fileURLToPath(dir))) {
          const html = await readFile(file, 'utf8');
          const hyphenated = hyphenateGermanHeadings(html);
          if (hyphenated === html) continue;
          await writeFile(file, hyphenated);
          changed++;
        }
        logger.info(`soft hyphens written into the German headings of ${changed} pages`);
      },
    },
  };
}

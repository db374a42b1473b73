import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'parse5';
import { builtCancelPage } from '../../tests/helpers/cancel-page';
import { builtContactPage } from '../../tests/helpers/contact-page';
import { builtRequestPage } from '../../tests/helpers/request-page';
import { elementsOf, type HtmlNode } from './html-edits';
import { loadHtmlParser, parseWithLocations } from './html-parse';
import { compactTree, parsedBefore, rememberParsed, treeFromCompact } from './html-tree';

beforeAll(loadHtmlParser);

/** Everything of each element that the edits read (html-edits.ts), in document order. */
const readByEdits = (document: HtmlNode) =>
  [...elementsOf(document)].map((e) => {
    const at = e.sourceCodeLocation;
    return {
      tag: e.tagName,
      attrs: e.attrs.map((a) => [a.name, a.value]),
      at: at && {
        start: at.startOffset,
        end: at.endOffset,
        startTag: [at.startTag?.startOffset, at.startTag?.endOffset],
        endTag: at.endTag ? [at.endTag.startOffset, at.endTag.endOffset] : null,
        attrs: Object.fromEntries(Object.entries(at.attrs ?? {}).map(([name, a]) => [name, [a.startOffset, a.endOffset]])),
      },
    };
  });

const parsed = (html: string, scripting: boolean) => parse(html, { sourceCodeLocationInfo: true, scriptingEnabled: scripting });
/** As the functions' bundle carries a tree: compact, through JSON, and back. */
const carried = (html: string, scripting: boolean) => treeFromCompact(JSON.parse(JSON.stringify(compactTree(parsed(html, scripting)))));

// Markup the pages may hold: void and self-closing elements, an implied <tbody>, entities in attributes, a template, SVG.
const TRICKY = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>A &amp; B</title></head><body>
<p title="&quot;x&quot; &lt;y&gt;" data-empty>one<br>two<img src="a.png" alt=''/></p>
<table><tr><td rowspan=2>cell</td></tr></table>
<template><span id="inside">t</span></template>
<svg viewBox="0 0 1 1"><path d="M0 0"/></svg>
<noscript><form action="/x"><input name="n" value="v"></form></noscript>
</body></html>`;

describe('a page’s tree carried by the bundle (compact, through JSON)', () => {
  const pages = [builtRequestPage('de'), builtRequestPage('en'), builtCancelPage('de'), builtContactPage('en'), TRICKY];

  it('keeps every element, attribute and offset that the edits read, read with or without scripting', () => {
    for (const html of pages) {
      for (const scripting of [true, false]) expect(readByEdits(carried(html, scripting))).toEqual(readByEdits(parsed(html, scripting)));
    }
  });

  it('is what the parser answers for exactly its page, read the same way; any other text is parsed', () => {
    const html = builtRequestPage('de');
    const tree = carried(html, true);
    rememberParsed(html, true, () => tree);
    expect(parseWithLocations(html)).toBe(tree);
    expect(parsedBefore(html, true)).toBe(tree);
    // Read without scripting, or one character apart: parsed.
    expect(parseWithLocations(html, { scripting: false })).not.toBe(tree);
    expect(parseWithLocations(`${html} `)).not.toBe(tree);
    expect(readByEdits(parseWithLocations(`${html} `))).toEqual(readByEdits(tree));
    // Remembered once: a second call does not replace the tree.
    rememberParsed(html, true, () => carried(html, true));
    expect(parseWithLocations(html)).toBe(tree);
  });
});

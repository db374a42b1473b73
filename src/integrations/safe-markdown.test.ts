/**
 * The build's lock on page Markdown: raw HTML and links to anything but
 * https, http, mailto, tel or a relative address fail the build, also when
 * written with character references, naming the file.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { refuseUnsafeMarkdown, safeMarkdown, UnsafeMarkdownError } from './safe-markdown';

const check = (markdown: string) => () => refuseUnsafeMarkdown()(fromMarkdown(markdown), { path: 'src/content/de/home.md' });

describe('safe Markdown at build', () => {
  it('is one of the remark plugins of the site', () => {
    expect(safeMarkdown.remarkPlugins).toContain(refuseUnsafeMarkdown);
    expect(safeMarkdown.remarkRehype.allowDangerousHtml).toBe(false);
  });

  it.each(['[x](javascript&#58;alert(1))', '[x](&#106;avascript:alert(1))', '<javascript:alert(1)>', '[x][r]\n\n[r]: vbscript:x', '[x](data:text/html;base64,PGI+)'])(
    'fails on the link %s',
    (markdown) => {
      expect(check(markdown)).toThrow(UnsafeMarkdownError);
      expect(check(markdown)).toThrow(/src\/content\/de\/home\.md: field "body"/);
    },
  );

  it.each(['<script>alert(1)</script>', 'Text <b>fett</b>', '<!-- x -->'])('fails on the HTML %s', (markdown) => {
    expect(check(markdown)).toThrow(/HTML/);
  });

  it('lets text and allowed links through', () => {
    expect(check('Ein **Text** mit [Link](https://example.org), [Mail](mailto:a@example.org), [Tel](tel:+49211), [Seite](/termin) und 3 < 5.')).not.toThrow();
  });
});

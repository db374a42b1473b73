/** Issue 23: Markdown bodies are rendered without raw HTML, whoever wrote them. */
import { createMarkdownProcessor } from '@astrojs/markdown-remark';
import { describe, expect, it } from 'vitest';
import { safeMarkdown } from './safe-markdown';

describe('the Markdown of the pages', () => {
  it('renders text, links and lists but drops raw HTML, scripts and event handlers included', async () => {
    const processor = await createMarkdownProcessor({ ...safeMarkdown, syntaxHighlight: false });
    const { code } = await processor.render(
      ['## Sprechzeiten', '', 'Mit **Termin** und [Link](https://example.org).', '', '- eins', '', '<script>alert(1)</script>', '', 'Bild: <img src=x onerror="alert(1)"> Ende', '', '<iframe src="https://example.org"></iframe>'].join('\n'),
    );
    expect(code).toContain('<h2 id="sprechzeiten">Sprechzeiten</h2>');
    expect(code).toContain('<strong>Termin</strong>');
    expect(code).toContain('<a href="https://example.org">Link</a>');
    expect(code).toContain('<li>eins</li>');
    expect(code).not.toMatch(/<script|onerror|<iframe|<img/);
  });
});

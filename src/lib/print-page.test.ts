import { describe, expect, it } from 'vitest';
import { cssString, printFrameCss } from './print-page';

describe('cssString', () => {
  it.each([
    ['Praxis Dr. Muster', '"Praxis Dr. Muster"'],
    ['Praxis „Am Rhein“ · Tel. 0211', '"Praxis „Am Rhein“ · Tel. 0211"'],
    ['Say "hi"', '"Say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['</style><script>', '"\\3c /style\\3e \\3c script\\3e "'],
    ['line\nbreak', '"line\\a break"'],
  ])('%j → %s', (value, css) => {
    expect(cssString(value)).toBe(css);
  });
});

describe('printFrameCss', () => {
  it('puts header, page number and the confidentiality line into the margin boxes of every page', () => {
    const css = printFrameCss({ header: 'Praxis · Königsallee 1', confidential: 'Vertraulich – enthält Patientendaten' });
    expect(css).toMatch(/^@page \{/);
    expect(css).toContain('@top-left { content: "Praxis · Königsallee 1";');
    expect(css).toContain('@bottom-left { content: "Vertraulich – enthält Patientendaten";');
    expect(css).toContain('@bottom-right { content: "Seite " counter(page) " von " counter(pages);');
  });

  it('leaves the confidentiality line out of pages without patients', () => {
    const css = printFrameCss({ header: 'Praxis', confidential: null });
    expect(css).not.toContain('@bottom-left');
    expect(css).toContain('counter(pages)');
  });
});

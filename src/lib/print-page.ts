/**
 * The frame of every printed back-office page (docs/architecture.md, Back
 * office): the practice's header at the top, the confidentiality line and
 * "Seite 1 von 2" at the bottom, on every sheet. They live in CSS paged
 * media margin boxes (`@top-left`, `@bottom-left`, `@bottom-right`), the
 * only place where Chromium counts pages (`counter(page)`,
 * `counter(pages)`); an element of the page itself would print once, or
 * repeat without its number. Margin boxes take only CSS strings, so the
 * texts are written into the page's stylesheet at build time.
 */

/**
 * A value as a CSS string literal: quotes and backslashes escaped, line
 * breaks and every character that could end the style element (`<`, `>`,
 * `&`) as CSS hex escapes, so a practice name never breaks out of its rule.
 */
export function cssString(value: string): string {
  const escaped = [...value]
    .map((ch) => {
      if (ch === '"' || ch === '\\') return `\\${ch}`;
      const code = ch.codePointAt(0)!;
      if (code < 0x20 || code === 0x7f || ch === '<' || ch === '>' || ch === '&') return `\\${code.toString(16)} `;
      return ch;
    })
    .join('');
  return `"${escaped}"`;
}

export interface PrintFrame {
  /** The practice's name, address and phone, at the top of every sheet. */
  header: string;
  /** "Vertraulich – enthält Patientendaten" on pages that show patients; null elsewhere. */
  confidential: string | null;
}

/** "Seite 1 von 2": the page counter of every sheet. */
export const PAGE_NUMBER = '"Seite " counter(page) " von " counter(pages)';

/** The margin boxes of every printed page (all page types, portrait and the named landscape one). */
export function printFrameCss({ header, confidential }: PrintFrame): string {
  const box = 'font-family: system-ui, sans-serif; font-size: 8pt; color: #000;';
  return [
    '@page {',
    `  @top-left { content: ${cssString(header)}; ${box} vertical-align: bottom; padding-bottom: 2mm; border-bottom: 0.5pt solid #000; }`,
    confidential ? `  @bottom-left { content: ${cssString(confidential)}; ${box} font-weight: 700; vertical-align: top; padding-top: 2mm; }` : '',
    `  @bottom-right { content: ${PAGE_NUMBER}; ${box} vertical-align: top; padding-top: 2mm; }`,
    '}',
  ]
    .filter(Boolean)
    .join('\n');
}

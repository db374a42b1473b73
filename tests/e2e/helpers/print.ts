/**
 * Printouts as paper shows them: the PDF Chromium prints (the page's own
 * @page sizes), read back page by page, and the print layout at the width
 * of the paper, where a clipped cell would show.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';

export const practiceName = (JSON.parse(readFileSync('src/content/practice.json', 'utf8')) as { name: { de: string } }).name.de;
export const CONFIDENTIAL = 'Vertraulich – enthält Patientendaten';

/** The printable width of an A4 sheet in CSS px (96 per inch) inside the page's margins (admin-page.astro). */
export const PAPER = {
  portrait: Math.floor(((210 - 30) / 25.4) * 96),
  landscape: Math.floor(((297 - 24) / 25.4) * 96),
} as const;

/** The page printed to PDF, each sheet's text with its white space folded (a wrapped line reads as one). */
export async function printedPages(page: Page): Promise<{ pdf: Buffer; pages: string[] }> {
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  await page.emulateMedia({ media: 'screen' });
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
  return { pdf, pages: text.map((t) => t.replace(/-\s+/g, '-').replace(/\s+/g, ' ')) };
}

/** Every sheet carries the practice's name, "Seite i von n" and, where patients are listed, the confidentiality line. */
export function expectFramed(pages: string[], { confidential = true } = {}) {
  expect(pages.length, 'the printout has pages').toBeGreaterThan(0);
  pages.forEach((text, i) => {
    const sheet = `sheet ${i + 1} of ${pages.length}`;
    expect(text, sheet).toContain(practiceName);
    expect(text, sheet).toContain(`Seite ${i + 1} von ${pages.length}`);
    if (confidential) expect(text, sheet).toContain(CONFIDENTIAL);
    else expect(text, sheet).not.toContain(CONFIDENTIAL);
  });
}

/** How often `word` stands as a whole word in `text`. */
export const wordCount = (text: string, word: string) => (text.match(new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, 'gu')) ?? []).length;

/**
 * The print layout at the paper's width: no table is wider than the sheet
 * and no cell's content overflows its box (a clipped column, as multi-column
 * printing cut "gebucht" to "gebuch"), no text sticks out of the sheet.
 */
export async function expectNothingCut(page: Page, width: number) {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ media: 'print' });
  const problems = await page.evaluate((paper) => {
    const out: string[] = [];
    for (const table of document.querySelectorAll('table')) {
      const box = table.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.right > paper + 0.5) out.push(`table ends at ${Math.round(box.right)} px of ${paper}`);
      for (const cell of table.querySelectorAll('td, th')) {
        const el = cell as HTMLElement;
        if (el.scrollWidth > el.clientWidth + 1) out.push(`cell overflows: ${el.textContent?.slice(0, 60)}`);
        let clip: Element | null = el.parentElement;
        while (clip && clip !== document.body) {
          const style = getComputedStyle(clip);
          if ((style.overflowX !== 'visible' || style.columnCount !== 'auto') && clip.getBoundingClientRect().right < el.getBoundingClientRect().right - 0.5) {
            out.push(`cell clipped by its ${clip.tagName.toLowerCase()}: ${el.textContent?.slice(0, 60)}`);
          }
          clip = clip.parentElement;
        }
      }
    }
    return out;
  }, width);
  await page.emulateMedia({ media: 'screen' });
  if (viewport) await page.setViewportSize(viewport);
  expect(problems).toEqual([]);
}

/**
 * The built privacy pages carry a section for every kind of stored data at
 * the id src/lib/privacy-sections.ts names (docs/decisions/042-install-on-node-20-and-a-suite-under-load.md):
 * the address /datenschutz#<id> opens that heading, in German and in English,
 * after everything the build does to the HTML (German hyphenation, CSP hashes).
 */
import { expect, test } from './helpers/test';
import { STORED_DATA_KINDS } from '../../src/lib/privacy-sections';

for (const lang of ['de', 'en'] as const) {
  test(`${lang}: every kind of stored data has its section at its address`, async ({ page }) => {
    await page.context().addInitScript((l) => localStorage.setItem('i18nextLng', l), lang);
    const base = lang === 'de' ? '/datenschutz' : '/en/datenschutz';
    for (const kind of STORED_DATA_KINDS) {
      const anchor = kind.anchor[lang];
      await page.goto(`${base}#${encodeURIComponent(anchor)}`);
      const heading = page.locator(`[id="${anchor}"]`);
      await expect(heading, kind.kind).toHaveCount(1);
      expect(await heading.evaluate((el) => el.tagName), kind.kind).toMatch(/^H[23]$/);
      await expect(page.getByRole('main').locator(`[id="${anchor}"]`), kind.kind).toBeVisible();
      // The address's fragment is that heading: the browser scrolled it into view.
      await expect(heading).toBeInViewport();
    }
  });
}

import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';

const labels = {
  de: { nav: 'Hauptnavigation', open: 'Menü öffnen', close: 'Menü schließen', home: '/', items: [['Praxis', '/'], ['Online buchen', '/termin'], ['Laboruntersuchungen', '/laboruntersuchungen'], ['Team', '/team'], ['Kontakt', '/kontakt']] },
  en: { nav: 'Main navigation', open: 'Open menu', close: 'Close menu', home: '/en/', items: [['Practice', '/en/'], ['Book Online', '/en/termin'], ['Lab Tests', '/en/laboruntersuchungen'], ['Team', '/en/team'], ['Contact', '/en/kontakt']] },
} as const;

async function open(page: Page, lang: 'de' | 'en', path: string) {
  await page.context().addInitScript((l) => localStorage.setItem('i18nextLng', l), lang);
  await page.goto(path);
}

for (const lang of ['de', 'en'] as const) {
  const l = labels[lang];

  test.describe(`layout (${lang})`, () => {
    test('navigation leads to every page and marks the current one', async ({ page }) => {
      await open(page, lang, l.home);
      const nav = page.getByRole('navigation', { name: l.nav }).first();
      for (const [label, href] of l.items) await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href);
      // /termin belongs to the booking issue; every other item is followed here.
      for (const [label, href] of l.items.filter(([, h]) => !h.endsWith('/termin'))) {
        await nav.getByRole('link', { name: label, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`${href.replace(/\/$/, '')}/?$`));
        await expect(page.getByRole('navigation', { name: l.nav }).first().getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
        // Scroll starts at the top on every page change.
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
      }
    });

    test('the fixed navigation turns compact past 50 px of scrolling and back', async ({ page }) => {
      await open(page, lang, l.home);
      const header = page.locator('#site-nav');
      await expect(header).toHaveAttribute('data-compact', 'false');
      const tall = (await header.boundingBox())!.height;
      // 40 px: once the page has handled the scroll (its listener runs before
      // this one), the header is still the tall one.
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            window.addEventListener('scroll', () => resolve(), { once: true });
            window.scrollTo(0, 40);
          }),
      );
      await expect(header).toHaveAttribute('data-compact', 'false');
      await page.evaluate(() => window.scrollTo(0, 51));
      await expect(header).toHaveAttribute('data-compact', 'true');
      // Fixed: still at the top of the viewport, and smaller.
      await expect.poll(async () => (await header.boundingBox())!.height).toBeLessThan(tall);
      expect((await header.boundingBox())!.y).toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(header).toHaveAttribute('data-compact', 'false');
    });

    test('the mobile menu slides in, keeps focus inside, closes with Escape, the close button and a link', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 800 });
      await open(page, lang, l.home);
      const toggle = page.getByRole('button', { name: l.open });
      // Small screens: the desktop links are hidden and the closed menu is out of the tree.
      await expect(page.getByRole('navigation', { name: l.nav })).toHaveCount(0);
      await toggle.click();
      const dialog = page.getByRole('dialog', { name: l.nav });
      await expect(dialog).toBeVisible();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      // The panel slides in to its place at the right edge and spans the whole viewport height.
      const panel = dialog.getByRole('navigation', { name: l.nav });
      await expect.poll(async () => Math.round((await panel.boundingBox())!.x + (await panel.boundingBox())!.width)).toBe(390);
      expect((await panel.boundingBox())!.height).toBe(800);
      expect((await panel.boundingBox())!.y).toBe(0);
      const close = page.getByRole('button', { name: l.close });
      await expect(close).toBeFocused();
      // Focus stays inside: Shift+Tab from the first item goes to the last link.
      await page.keyboard.press('Shift+Tab');
      await expect(dialog.getByRole('link', { name: l.items[4][0], exact: true })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(close).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(toggle).toBeFocused();

      await toggle.click();
      await close.click();
      await expect(dialog).toBeHidden();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');

      await toggle.click();
      await dialog.getByRole('link', { name: 'Team', exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${lang === 'en' ? '/en' : ''}/team$`));
      await expect(page.getByRole('dialog')).toBeHidden();
    });
  });
}

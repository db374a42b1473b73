import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';

/** Main-frame navigations of a page, to prove detection settles without a loop. */
function trackNavigations(page: Page): string[] {
  const urls: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) urls.push(new URL(frame.url()).pathname);
  });
  return urls;
}

/**
 * The page has loaded and moved no further: detection runs in the head while
 * the page is parsed, so a second move would have asked for its page before
 * the network fell quiet (networkidle: no request for 500 ms).
 */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  await page.waitForLoadState('networkidle');
}

async function contextWith(browser: Browser, locale: string, stored?: string) {
  const context = await browser.newContext({ locale });
  if (stored) await context.addInitScript((l) => localStorage.getItem('i18nextLng') ?? localStorage.setItem('i18nextLng', l), stored);
  return context;
}

test.describe('first-load detection (stored choice, browser languages, page lang)', () => {
  test('no redirect on a first visit: an English browser on a German page sees a suggestion, remembered once dismissed', async ({ browser }) => {
    const context = await contextWith(browser, 'en-US');
    const page = await context.newPage();
    const navigations = trackNavigations(page);
    await page.goto('/team?ref=x#values');
    await settle(page);
    expect(navigations).toEqual(['/team']);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unser Team');
    const suggestion = page.getByRole('complementary', { name: 'This page is also available in English.' });
    await expect(suggestion).toBeVisible();
    await expect(suggestion.getByRole('link', { name: 'Read it in English' })).toHaveAttribute('href', '/en/team');
    // Nothing is stored without a choice.
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBeNull();

    await suggestion.getByRole('button', { name: 'Dismiss this hint' }).click();
    await expect(suggestion).toBeHidden();
    await page.goto('/kontakt');
    await settle(page);
    await expect(page.getByRole('complementary', { name: 'This page is also available in English.' })).toBeHidden();
    expect(navigations.at(-1)).toBe('/kontakt');
    await context.close();
  });

  test('the suggestion link leads to the twin with the query and stores the choice', async ({ browser }) => {
    const context = await contextWith(browser, 'en-GB');
    const page = await context.newPage();
    await page.goto('/laboruntersuchungen?ref=x');
    await page.getByRole('link', { name: 'Read it in English' }).click();
    await expect(page).toHaveURL(/\/en\/laboruntersuchungen\?ref=x$/);
    await expect(page.getByRole('complementary', { name: /also available/ })).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');
    await context.close();
  });

  test('a German browser on an English page sees the German suggestion, no redirect', async ({ browser }) => {
    const context = await contextWith(browser, 'de-DE');
    const page = await context.newPage();
    const navigations = trackNavigations(page);
    await page.goto('/en/team');
    await settle(page);
    expect(navigations).toEqual(['/en/team']);
    await expect(page.getByRole('complementary', { name: 'Diese Seite gibt es auch auf Deutsch.' })).toBeVisible();
    await context.close();
  });

  test('an English page stays English for a German browser without a stored choice', async ({ browser }) => {
    const context = await contextWith(browser, 'de-DE');
    const page = await context.newPage();
    const navigations = trackNavigations(page);
    await page.goto('/en/kontakt');
    await settle(page);
    expect(navigations).toEqual(['/en/kontakt']);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('complementary', { name: 'Diese Seite gibt es auch auf Deutsch.' })).toBeVisible();
    await context.close();
  });

  test('a stored choice of German wins over an English browser and moves English pages back, once', async ({ browser }) => {
    const context = await contextWith(browser, 'en-GB', 'de');
    const page = await context.newPage();
    const navigations = trackNavigations(page);
    await page.goto('/en/laboruntersuchungen');
    await expect(page).toHaveURL(/\/laboruntersuchungen$/);
    await settle(page);
    expect(navigations).toEqual(['/en/laboruntersuchungen', '/laboruntersuchungen']);
    // And German pages stay put.
    await page.goto('/');
    await settle(page);
    expect(navigations.at(-1)).toBe('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await context.close();
  });

  test('a stored choice of English wins over a German browser', async ({ browser }) => {
    const context = await contextWith(browser, 'de-DE', 'en');
    const page = await context.newPage();
    const navigations = trackNavigations(page);
    await page.goto('/');
    await expect(page).toHaveURL(/\/en\/$/);
    await settle(page);
    expect(navigations).toEqual(['/', '/en/']);
    await context.close();
  });

  test('a German browser stays on German pages', async ({ browser }) => {
    const context = await contextWith(browser, 'de-DE');
    const page = await context.newPage();
    const navigations = trackNavigations(page);
    await page.goto('/impressum');
    await settle(page);
    expect(navigations).toEqual(['/impressum']);
    await expect(page.getByRole('complementary', { name: /also available/ })).toBeHidden();
    await context.close();
  });
});

test.describe('404 per language', () => {
  test('an unknown German path answers the German 404 page, an unknown /en/ path the English one', async ({ page }) => {
    const de = await page.goto('/gibt-es-nicht');
    expect(de?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Diese Seite gibt es leider nicht');
    await expect(page.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeAttached();

    const en = await page.goto('/en/does-not-exist');
    expect(en?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');
    await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/en/');
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeAttached();
    await expect(page.getByText('Die angeforderte Seite')).toHaveCount(0);
  });
});

test.describe('the language switch', () => {
  test('reads "EN" on German pages and "DE" on English ones, as text (no flag), named in its own language', async ({ page }) => {
    for (const [path, code, name, lang] of [
      ['/team', 'EN', 'English version', 'en'],
      ['/en/team', 'DE', 'Deutsche Version', 'de'],
    ] as const) {
      await page.goto(path);
      const link = page.getByRole('banner').getByRole('link', { name, exact: true });
      await expect(link).toHaveText(code);
      await expect(link).toHaveAttribute('lang', lang);
      await expect(link).toHaveAttribute('hreflang', lang);
      // No emoji anywhere in it (a flag is two regional-indicator symbols).
      expect(await link.innerHTML()).not.toMatch(/\p{Regional_Indicator}|\p{Extended_Pictographic}/u);
    }
  });

  test('switches to the twin page, stores the choice and the choice persists across pages and visits', async ({ browser }) => {
    const context = await contextWith(browser, 'de-DE');
    const page = await context.newPage();
    await page.goto('/team');
    await page.getByRole('link', { name: 'English version' }).click();
    await expect(page).toHaveURL(/\/en\/team$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our team');
    await expect(page.getByRole('complementary', { name: /auch auf Deutsch/ })).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');

    // A German address now leads to English, in this tab and in a new one.
    await page.goto('/kontakt');
    await expect(page).toHaveURL(/\/en\/kontakt$/);
    const second = await context.newPage();
    await second.goto('/laboruntersuchungen');
    await expect(second).toHaveURL(/\/en\/laboruntersuchungen$/);
    await second.close();

    // Back to German with the switch; the choice flips and sticks.
    await page.getByRole('link', { name: 'Deutsche Version' }).click();
    await expect(page).toHaveURL(/\/kontakt$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('de');
    const navigations = trackNavigations(page);
    await page.goto('/en/');
    await expect(page).toHaveURL(/\/$/);
    await settle(page);
    expect(navigations).toEqual(['/en/', '/']);
    await context.close();
  });

  test('keeps the query string (the cancel page keeps its ?token=)', async ({ page }) => {
    await page.goto('/termin/absagen?token=abc123');
    await page.getByRole('link', { name: 'English version' }).click();
    await expect(page).toHaveURL(/\/en\/termin\/absagen\?token=abc123$/);
  });

  test('works in the mobile menu layout too', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await page.goto('/en/');
    await page.getByRole('link', { name: 'Deutsche Version' }).click();
    await expect(page).toHaveURL(/\/$/);
    await settle(page);
    // The English browser does not pull the visitor back: the stored choice wins.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihre Hausarztpraxis in Düsseldorf');
    await context.close();
  });
});

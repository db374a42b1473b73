/**
 * Issue 14, as patients meet it: wizard steps in the browser history, offline
 * states with retry, no horizontal overflow at 320 px on any public page in
 * either language, axe with the WCAG 2.2 AA rules on every page and wizard
 * step, and focus never hidden under the fixed header.
 */
import AxeBuilder from '@axe-core/playwright';
import { devices, expect, test, type Page } from '@playwright/test';
import { bothLanguages } from './support/public-pages';
import { onDateWithTimes } from './helpers/wizard';

const WCAG22 = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** Every public page in both languages, with the booking, install, cancel and 404 pages. */
const allPages = [
  ...bothLanguages.map((p) => p.path),
  '/termin',
  '/en/termin',
  '/install',
  '/en/install',
  '/termin/absagen?token=' + 'x'.repeat(43),
  '/en/termin/absagen?token=' + 'x'.repeat(43),
  '/gibt-es-nicht',
  '/en/does-not-exist',
];

// The service worker's precache downloads would keep the network busy between the many page loads here.
test.use({ serviceWorkers: 'block' });

async function settled(page: Page) {
  await page.waitForLoadState('load');
  // Islands hydrated (except the contact form, which waits for an interaction), animations done.
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="interaction"])').length === 0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

async function axe(page: Page, label: string) {
  await settled(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG22).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Tabs through the page; every focused element outside the header must show at least partly below it. */
async function focusNeverUnderHeader(page: Page, label: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('body').focus();
  const hidden: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const problem = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const header = document.getElementById('site-nav');
      if (!el || el === document.body || !header || header.contains(el) || el.closest('#mobile-menu')) return null;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return null;
      const h = header.getBoundingClientRect();
      return r.bottom <= h.bottom + 1 ? `${el.tagName} ${el.textContent?.trim().slice(0, 30)}` : null;
    });
    if (problem) hidden.push(`${label}: ${problem}`);
  }
  expect(hidden).toEqual([]);
}

test.describe('wizard steps in the browser history', () => {
  for (const [path, names] of [
    ['/termin', { choose: /^Auswählen: Check-up$/, times: 'Uhrzeit wählen', next: 'Weiter', step2: 'Datum und Uhrzeit wählen', step3: 'Ihre Daten', step1: 'Welche Terminart möchten Sie buchen?', param: 'schritt' }],
    ['/en/termin', { choose: /^Select: (Health check|Check-up)$/, times: 'Select time', next: 'Next', step2: 'Choose date and time', step3: 'Your details', step1: 'Which type of appointment would you like?', param: 'step' }],
  ] as const) {
    test(`back and forward move between steps, a reload restores the choices (${path})`, async ({ page }) => {
      // A step that leaves fades out (auto-animate) while the next comes in: moving back
      // within that moment briefly shows both, so wait for exactly one of the step's heading.
      const onStep = async (name: string) => {
        const heading = page.getByRole('heading', { name });
        await expect(heading).toHaveCount(1);
        await expect(heading).toBeVisible();
      };
      await page.goto(path);
      await page.getByRole('button', { name: names.choose }).click();
      await onDateWithTimes(page, 2);
      const times = page.getByRole('group', { name: names.times }).getByRole('button');
      await times.nth(1).click();
      const time = (await times.nth(1).textContent())!.trim();
      await page.getByRole('button', { name: names.next, exact: true }).click();
      await onStep(names.step3);
      expect(new URL(page.url()).searchParams.get(names.param)).toBe('3');

      await page.goBack();
      await onStep(names.step2);
      await expect(page.getByRole('group', { name: names.times }).getByRole('button', { name: new RegExp(`^${time}`) })).toHaveAttribute('aria-pressed', 'true');
      await page.goBack();
      await onStep(names.step1);
      expect(new URL(page.url()).pathname).toBe(path);
      await page.goForward();
      await page.goForward();
      await onStep(names.step3);

      await page.getByLabel(/^(Vorname|First name)/).fill('Erika');
      await page.reload();
      await onStep(names.step3);
      await expect(page.getByRole('complementary', { name: /^(Zusammenfassung|Summary)$/ })).toContainText(time);
      // Patient data is never restored from anywhere.
      await expect(page.getByLabel(/^(Vorname|First name)/)).toHaveValue('');
    });
  }
});

test.describe('offline', () => {
  test('/termin says there is no connection and retries', async ({ page, context }) => {
    let failed = false;
    await page.route('**/api/appointment-types', async (route) => {
      if (!failed) {
        failed = true;
        await context.setOffline(true);
        await route.abort('internetdisconnected');
      } else await route.continue();
    });
    await page.goto('/termin');
    const alert = page.getByRole('alert').filter({ hasText: 'Keine Internetverbindung' });
    await expect(alert).toBeVisible();
    await expect(page.getByText('Ein unerwarteter Fehler ist aufgetreten.')).toHaveCount(0);
    await expect(page.getByText(/keine Terminarten online buchbar/i)).toHaveCount(0);
    await context.setOffline(false);
    await alert.getByRole('button', { name: 'Erneut versuchen' }).click();
    await expect(page.getByRole('button', { name: /^Auswählen: Check-up$/ })).toBeVisible();
  });

  test('the cancel page says there is no connection and retries', async ({ page, context }) => {
    let failed = false;
    await page.route('**/api/bookings/cancel?*', async (route) => {
      if (!failed) {
        failed = true;
        await context.setOffline(true);
        await route.abort('internetdisconnected');
      } else await route.continue();
    });
    await page.goto('/en/termin/absagen?token=' + 'x'.repeat(43));
    const alert = page.getByRole('alert').filter({ hasText: 'No internet connection' });
    await expect(alert).toBeVisible();
    await context.setOffline(false);
    await alert.getByRole('button', { name: 'Try again' }).click();
    // Back online, the server answers (an unknown token here).
    await expect(page.getByText('This cancellation link is invalid or has already been used.')).toBeVisible();
  });
});

test.describe('320 px wide', () => {
  test.use({ viewport: { width: 320, height: 700 } });

  test('no public page in either language overflows horizontally', async ({ page }) => {
    test.setTimeout(120_000);
    const overflowing: string[] = [];
    for (const path of allPages) {
      await page.goto(path);
      await settled(page);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      if (widths.scroll > widths.client) overflowing.push(`${path}: ${widths.scroll} > ${widths.client}`);
    }
    expect(overflowing).toEqual([]);
  });

  test('the wizard steps do not overflow either, and the language button stays on one line', async ({ page }) => {
    for (const path of ['/termin', '/en/termin']) {
      await page.goto(path);
      const button = page.locator('header [data-lang-switch]');
      const box = (await button.boundingBox())!;
      expect(box.height).toBeLessThan(40);
      await page.getByRole('button', { name: /^(Auswählen|Select): (Check-up|Health check)$/ }).click();
      await onDateWithTimes(page);
      await page.getByRole('group', { name: /^(Uhrzeit wählen|Select time)$/ }).getByRole('button').first().click();
      await page.locator('main').getByRole('button', { name: /^(Weiter|Next)$/ }).click();
      await page.getByRole('checkbox').first().waitFor(); // consent and the reminder box
      await settled(page);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll, path).toBeLessThanOrEqual(widths.client);
    }
  });
});

test.describe('axe with the WCAG 2.2 AA rules', () => {
  test('every public page, in both languages', async ({ page }) => {
    test.setTimeout(180_000);
    for (const path of allPages) {
      await page.goto(path);
      await axe(page, path);
    }
  });

  test('every wizard step, on a phone', async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 390, height: 800 });
    for (const path of ['/termin', '/en/termin']) {
      await page.goto(path);
      await page.getByRole('listitem').getByRole('button').first().waitFor();
      await axe(page, `${path} step 1`);
      await page.getByRole('button', { name: /^(Auswählen|Select): (Check-up|Health check)$/ }).click();
      await onDateWithTimes(page);
      const times = page.getByRole('group', { name: /^(Uhrzeit wählen|Select time)$/ }).getByRole('button');
      await times.first().waitFor();
      await axe(page, `${path} step 2`);
      await times.first().click();
      await page.locator('main').getByRole('button', { name: /^(Weiter|Next)$/ }).click();
      await page.getByRole('checkbox').first().waitFor(); // consent and the reminder box
      await axe(page, `${path} step 3`);
    }
  });

  test('focus is never hidden under the fixed header', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 390, height: 800 });
    for (const path of [...bothLanguages.map((p) => p.path), '/termin', '/en/termin']) {
      await page.goto(path);
      await settled(page);
      await focusNeverUnderHeader(page, path);
    }
  });
});

test.describe('the install banner on an iPhone, first visit', () => {
  const iPhone = devices['iPhone 13'];
  test.use({ userAgent: iPhone.userAgent, viewport: { width: 390, height: 664 }, isMobile: true, hasTouch: true });

  test('is compact and never keeps a type card hidden behind it', async ({ page }) => {
    await page.goto('/termin');
    const banner = page.getByRole('complementary', { name: 'Unsere Praxis-App' });
    await expect(banner).toBeVisible();
    const bannerBox = (await banner.boundingBox())!;
    expect(bannerBox.height).toBeLessThan(664 * 0.4);
    // Scrolled to the end, the last card's button is above the banner.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const last = page.getByRole('listitem').getByRole('button', { name: /^Auswählen:/ }).last();
    const box = (await last.boundingBox())!;
    const top = (await banner.boundingBox())!.y;
    expect(box.y + box.height).toBeLessThanOrEqual(top);
  });
});

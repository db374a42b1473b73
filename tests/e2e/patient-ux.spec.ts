/**
 * docs/decisions/011, as patients meet it: wizard steps in the browser history, offline
 * states with retry, no horizontal overflow at 320 px on any public page in
 * either language, axe with the WCAG 2.2 AA rules on every page and wizard
 * step, and focus never hidden under the fixed header.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { axe, settled } from './helpers/axe';
import { bothLanguages } from './support/public-pages';
import { onDateWithTimes } from './helpers/wizard';

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
      // What was typed at step 3 comes back from sessionStorage only: never localStorage or the URL.
      await expect(page.getByLabel(/^(Vorname|First name)/)).toHaveValue('Erika');
      expect(page.url()).not.toContain('Erika');
      expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => localStorage.getItem(k)?.includes('Erika')))).toEqual([]);
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
    await expect(page.getByRole('heading', { level: 1, name: 'No internet connection' })).toBeVisible();
    const alert = page.getByRole('alert').filter({ hasText: 'Without an internet connection' });
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

/**
 * A reload on step 3 of the wizard (docs/decisions/029): what was typed and
 * ticked (consent, reminder) is still there, and the browser's Back then
 * leads to step 2 and to step 1, Forward the same way up. Nothing is booked.
 * The step being left fades out hidden from assistive technology.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { de, onDateWithTimes } from './helpers/wizard';

/** Step 3 of the German wizard: a Check-up at the first free time. */
async function toDetails(page: Page) {
  await page.goto(de.path);
  await page.getByRole('button', { name: de.choose('Check-up') }).click();
  await onDateWithTimes(page);
  await page.getByRole('group', { name: de.times }).getByRole('button').first().click();
  await page.getByRole('button', { name: de.next, exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Ihre Daten' })).toBeVisible();
}


test('after a reload on step 3: the typed fields and both ticks stay; Back goes to step 2, then step 1', async ({ page }) => {
  test.setTimeout(90_000);
  await toDetails(page);
  await page.getByLabel(de.labels.first).fill('Erika');
  await page.getByRole('checkbox', { name: de.labels.consent }).check();
  await page.getByRole('checkbox', { name: 'Erinnerung per E-Mail 24 Stunden vorher' }).check();
  const step3 = page.url();
  const entries = await page.evaluate(() => history.length);

  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Ihre Daten' })).toBeVisible();
  await expect(page.getByLabel(de.labels.first)).toHaveValue('Erika');
  await expect(page.getByRole('checkbox', { name: de.labels.consent })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Erinnerung per E-Mail 24 Stunden vorher' })).toBeChecked();
  expect(page.url()).toBe(step3);
  expect(await page.evaluate(() => history.length), 'the reload added no history entry').toBe(entries);

  await page.goBack();
  await expect(page.getByRole('heading', { level: 2, name: 'Datum und Uhrzeit wählen' })).toBeVisible();
  await expect(page).toHaveURL(/[?&]schritt=2/);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 2, name: 'Welche Terminart möchten Sie buchen?' })).toBeVisible();
  await expect(page).toHaveURL((u) => u.pathname === '/termin' && u.search === '');
  await page.goForward();
  await expect(page.getByRole('heading', { level: 2, name: 'Datum und Uhrzeit wählen' })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { level: 2, name: 'Ihre Daten' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: de.labels.consent })).toBeChecked();
});

test('a step being left fades out hidden: Back and at once Forward show one "Ihre Daten", never two', async ({ page }) => {
  test.setTimeout(90_000);
  await toDetails(page);
  await expect.poll(() => page.evaluate(() => document.getAnimations().length)).toBe(0);
  // Transitions at a twentieth of their speed: the step left stays on screen for seconds.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Animation.enable');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 0.05 });

  await page.goBack();
  await expect(page.getByRole('heading', { level: 2, name: 'Datum und Uhrzeit wählen' })).toBeVisible();
  const fading = page.locator('[aria-hidden="true"][inert]').filter({ hasText: 'Ihre Daten' });
  await expect(fading, 'step 3 is still fading out').toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Ihre Daten' })).toHaveCount(0);
  await page.goForward();
  await expect(page.getByRole('heading', { level: 2, name: 'Ihre Daten' })).toBeVisible();
  expect(await fading.count(), 'the old step 3 fades out beside the new one').toBeGreaterThan(0);
  const duplicateIds = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });
  expect(duplicateIds).toEqual([]);
  await expect(page.getByRole('heading', { level: 2, name: 'Ihre Daten' })).toBeFocused();
});

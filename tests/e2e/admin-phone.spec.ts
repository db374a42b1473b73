/**
 * The back office on a phone (issue 21, points 7 and 8): toasts never cover
 * the header's controls.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signInAsAdmin } from './helpers/admin';

const PHONE = { width: 360, height: 640 };

/** True when the element's centre shows the element itself (or its content), not something laid over it. */
async function onTop(control: Locator): Promise<boolean> {
  return control.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

function headerControls(page: Page): Locator[] {
  const header = page.getByRole('banner');
  return [
    header.getByRole('button', { name: 'Seitenleiste umschalten' }),
    header.getByRole('link', { name: 'Zur Terminbuchung' }),
    header.getByRole('button', { name: 'Abmelden' }),
  ];
}

test('on a phone the sign-in toast covers no control of the admin header', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInAsAdmin(page);
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Erfolgreich angemeldet' });
  await expect(toast).toBeVisible();
  // A pointer resting on a toast keeps it (sonner pauses it): the worst case, a toast that stays.
  await toast.hover();
  const toastBox = (await toast.boundingBox())!;
  for (const control of headerControls(page)) {
    await expect(control).toBeVisible();
    const box = (await control.boundingBox())!;
    const apart =
      box.x + box.width <= toastBox.x || toastBox.x + toastBox.width <= box.x || box.y + box.height <= toastBox.y || toastBox.y + toastBox.height <= box.y;
    expect(apart, `${await control.textContent()} lies apart from the toast`).toBe(true);
    expect(await onTop(control)).toBe(true);
  }
  await expect(toast).toBeVisible();
  await page.getByRole('button', { name: 'Seitenleiste umschalten' }).click();
  await expect(page.getByRole('dialog', { name: 'Admin-Navigation' })).toBeVisible();
});

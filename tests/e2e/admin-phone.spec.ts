/**
 * The back office on a phone: toasts never cover
 * the header's controls.
 */
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { ADMIN, signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';
import { expectFitsScreen, PHONE } from './helpers/phone';


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
  // The toasts' own labels are German too (sonner's defaults are English).
  await expect(page.getByRole('region', { name: /^Benachrichtigungen/ })).toBeAttached();
  await expect(toast.getByRole('button', { name: 'Meldung schließen' })).toBeAttached();
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

type Box = { x: number; y: number; width: number; height: number };
const apart = (a: Box, b: Box) => a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

/** The header's parts: none overlaps another, the actions keep one line, the email shows in full; the title names the page. */
async function expectTidyHeader(page: Page, where: string, pageName: string) {
  const header = page.getByRole('banner');
  const parts = [
    header.getByRole('button', { name: 'Seitenleiste umschalten' }),
    header.getByText(pageName, { exact: true }),
    header.getByText(ADMIN.email),
    header.getByRole('link', { name: 'Zur Terminbuchung' }),
    header.getByRole('button', { name: 'Abmelden' }),
  ];
  const boxes: Box[] = [];
  for (const part of parts) boxes.push((await part.boundingBox())!);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) expect(apart(boxes[i]!, boxes[j]!), `${where}: header parts ${i} and ${j} overlap`).toBe(true);
  }
  const [, title, email, link, signOut] = boxes;
  for (const action of [link!, signOut!]) expect(action.height, `${where}: an action wraps`).toBeLessThan(44);
  expect(await parts[1]!.evaluate((el) => el.scrollWidth <= el.clientWidth), `${where}: the title is cut`).toBe(true);
  expect(await parts[2]!.evaluate((el) => el.scrollWidth <= el.clientWidth), `${where}: the email is cut`).toBe(true);
  expect(title!.x + title!.width, `${where}: the title runs under the actions`).toBeLessThanOrEqual(link!.x);
  void email;
}

test('every admin page fits a 360 px phone: nothing scrolls sideways, the header parts stand apart', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize(PHONE);
  await signInAsAdmin(page);
  // Every page the navigation offers, so a page added later is checked too.
  await page.getByRole('button', { name: 'Seitenleiste umschalten' }).click();
  const drawer = page.getByRole('dialog', { name: 'Admin-Navigation' });
  const links = await drawer.getByRole('link').evaluateAll((found) => found.map((a) => [a.getAttribute('href')!, a.textContent!.trim()] as const));
  expect(links.length).toBeGreaterThan(8);
  for (const [href, name] of links) {
    await page.goto(href);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Wird geladen …')).toHaveCount(0);
    await expectFitsScreen(page, href);
    // The header names the page as the navigation does.
    await expectTidyHeader(page, href, name);
    await expectNoAxeViolations(page, `${href} at 360 px`);
  }
  await page.setViewportSize({ width: 320, height: 640 });
  await expectTidyHeader(page, '320 px', links.at(-1)![1]);
});

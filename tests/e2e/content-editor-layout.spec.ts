/**
 * Room in the content editor at /admin/inhalte: from 1280 px the German
 * fields, the English fields and the preview stand side by side, all
 * visible at once, none covering another or covered by Decap's view
 * buttons, and nothing scrolls sideways; at 768 px and on a phone the
 * editor is one column, not a "too narrow" notice
 * (docs/decisions/031-content-editor-second-pass.md). Nothing is saved, so
 * this runs on the shared e2e server.
 */
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { signInAsAdmin } from './helpers/admin';
import { axeBuilder, WCAG22_AA } from './helpers/axe';

type Box = { x: number; y: number; width: number; height: number };

const GERMAN_HEADING = 'Ihre Hausarztpraxis in Düsseldorf';
const ENGLISH_HEADING = 'Your family practice in Düsseldorf';
/** Decap's view buttons above the editor (german-phrases.ts names them). */
const VIEW_BUTTONS = ['Zweite Sprache ein- oder ausblenden', 'Vorschau ein- oder ausblenden', 'Beide Spalten gemeinsam scrollen'];

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'element is laid out').not.toBeNull();
  return found!;
}

/** The document, and the editor's own box, are no wider than the window. */
async function expectNoHorizontalOverflow(page: Page) {
  const widths = await page.evaluate(() => {
    const root = document.getElementById('nc-root')!;
    return {
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      box: root.scrollWidth,
      boxClient: root.clientWidth,
    };
  });
  expect(widths.scroll, 'document scrollWidth').toBeLessThanOrEqual(widths.client);
  expect(widths.box, 'editor box scrollWidth').toBeLessThanOrEqual(widths.boxClient + 1);
}

/** Signs in and opens the home page's entry in the editor, at the window size already set. */
async function openHomeEntry(page: Page) {
  await signInAsAdmin(page);
  await page.goto('/admin/inhalte');
  await page.getByRole('link', { name: 'Startseite' }).click();
  await page.getByText('Hausarztpraxis Düsseldorf – Allgemeinmedizin und Vorsorge').click();
  const headings = page.getByLabel('Hauptüberschrift');
  // Loading the entry can take a while on a busy machine.
  await expect(headings).toHaveCount(2, { timeout: 60_000 });
  await expect(headings.nth(0)).toHaveValue(GERMAN_HEADING);
  await expect(headings.nth(1)).toHaveValue(ENGLISH_HEADING);
  return headings;
}

/** The pane (column) of the editor that holds `field`. */
function columnOf(field: Locator): Locator {
  return field.locator('xpath=ancestor::*[contains(concat(" ", @class, " "), " cms-editor-pane ")][1]');
}

test('from 1280 px both language columns and the preview are visible side by side, uncovered, without sideways scrolling', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const headings = await openHomeEntry(page);
  const preview = page.locator('#nc-root iframe');
  await expect(preview).toBeVisible();
  // The preview shows the page as it is being edited (the German text).
  await expect(page.frameLocator('#nc-root iframe').getByText(GERMAN_HEADING).first()).toBeVisible();

  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(preview).toBeVisible();
    await expectNoHorizontalOverflow(page);

    const german = await box(columnOf(headings.nth(0)));
    const english = await box(columnOf(headings.nth(1)));
    const shown = await box(preview);
    const columns = { german, english, preview: shown };
    for (const [name, column] of Object.entries(columns)) {
      expect(column.x, `${name} column starts in the window at ${width} px`).toBeGreaterThanOrEqual(0);
      expect(column.x + column.width, `${name} column ends in the window at ${width} px`).toBeLessThanOrEqual(width);
      expect(column.width, `${name} column is wide enough to work in at ${width} px`).toBeGreaterThan(280);
      expect(column.height, `${name} column is tall enough at ${width} px`).toBeGreaterThan(300);
    }
    // Side by side, in that order, none over another.
    expect(german.x + german.width).toBeLessThanOrEqual(english.x + 1);
    expect(english.x + english.width).toBeLessThanOrEqual(shown.x + 1);
    expect(overlap(german, english)).toBe(false);
    expect(overlap(english, shown)).toBe(false);
    expect(overlap(german, shown)).toBe(false);
    // Each heading field lies whole in its own column.
    for (const [i, column] of [german, english].entries()) {
      const field = await box(headings.nth(i));
      expect(field.x).toBeGreaterThanOrEqual(column.x);
      expect(field.x + field.width).toBeLessThanOrEqual(column.x + column.width + 1);
    }
    // Decap's floating view buttons cover none of the three.
    for (const title of VIEW_BUTTONS) {
      const button = page.getByTitle(title, { exact: true });
      await expect(button).toBeVisible();
      const at = await box(button);
      for (const [name, column] of Object.entries(columns)) {
        expect(overlap(at, column), `"${title}" over the ${name} column at ${width} px`).toBe(false);
      }
    }
    const shot = testInfo.outputPath(`content-editor-${width}.png`);
    await page.screenshot({ path: shot });
    await testInfo.attach(`content-editor-${width}.png`, { path: shot, contentType: 'image/png' });
  }
});

test('at 768 px and on a phone the editor is one column, without a "too narrow" notice', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 768, height: 1024 });
  const headings = await openHomeEntry(page);

  for (const width of [768, 390]) {
    await page.setViewportSize({ width, height: width === 768 ? 1024 : 844 });
    await expect(page.getByText(/mindestens 800 Pixel|zu schmal/)).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    const root = await box(page.locator('#nc-root'));

    const german = await box(columnOf(headings.nth(0)));
    const english = await box(columnOf(headings.nth(1)));
    // One column: both languages use the editor's whole width, the English below the German.
    for (const [name, column] of Object.entries({ german, english })) {
      expect(column.x, `${name} column at ${width} px`).toBeGreaterThanOrEqual(root.x - 1);
      expect(column.x + column.width, `${name} column at ${width} px`).toBeLessThanOrEqual(root.x + root.width + 1);
      expect(column.width, `${name} column fills the editor at ${width} px`).toBeGreaterThan(root.width - 80);
    }
    expect(english.y, `English below German at ${width} px`).toBeGreaterThanOrEqual(german.y + german.height - 1);
    // The fields can be typed in: the German heading is in the window's width.
    const field = await box(headings.nth(0));
    expect(field.x).toBeGreaterThanOrEqual(0);
    expect(field.x + field.width).toBeLessThanOrEqual(width);
    // Publishing stays within reach.
    const publish = page.getByRole('button', { name: /^(Veröffentlich|Gespeichert)/ });
    await expect(publish).toBeVisible();
    const at = await box(publish);
    expect(at.x + at.width, `"Veröffentlichen" in the window at ${width} px`).toBeLessThanOrEqual(width);
    const back = await box(page.getByRole('link', { name: /Zurück zur Übersicht/ }));
    expect(back.x).toBeGreaterThanOrEqual(0);
    expect(back.x + back.width, `the way back in the window at ${width} px`).toBeLessThanOrEqual(width);
    // The preview follows below the two languages.
    const preview = page.locator('#nc-root iframe');
    await preview.scrollIntoViewIfNeeded();
    await expect(preview).toBeVisible();
    expect((await box(preview)).width).toBeGreaterThan(root.width - 80);
    const shot = testInfo.outputPath(`content-editor-${width}.png`);
    await page.screenshot({ path: shot });
    await testInfo.attach(`content-editor-${width}.png`, { path: shot, contentType: 'image/png' });
  }
});

/** Controls and texts inside `scope` that stick out of the window or end cut off ("…", clipped). */
async function outOfWindowOrCut(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const out: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>('button, a, [role="button"], span, div')) {
      if (el.children.length > 0 && el.tagName !== 'BUTTON' && el.tagName !== 'A') continue;
      const text = (el.textContent ?? '').trim();
      const r = el.getBoundingClientRect();
      if (r.width === 0 || !text) continue;
      if (r.left < -0.5 || r.right > window.innerWidth + 0.5) out.push(`outside the window: ${text}`);
      if (el.scrollWidth > el.clientWidth + 1) out.push(`cut: ${text}`);
    }
    return out;
  });
}

test('at 390 px the toolbar and the account menu fit the screen, no label is cut; the badge and the publish state agree; German nouns keep their capitals', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openHomeEntry(page);
  await expectNoHorizontalOverflow(page);
  const toolbar = page.locator('#nc-root .cms-editor > :first-child');
  // The toolbar wraps into rows instead of scrolling: nothing of it outside the window, no "…".
  expect(await toolbar.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  expect(await outOfWindowOrCut(toolbar)).toEqual([]);
  await expect(toolbar.getByRole('link', { name: /Zurück zur Übersicht: Startseite/ })).toBeVisible();
  await expect(toolbar.getByText('Prüfen, ob eine Vorschau bereitsteht')).toBeVisible();
  // A saved entry: "Gespeichert", not "Veröffentlicht" while the publication may still be on its way.
  await expect(toolbar.getByRole('button', { name: 'Gespeichert', exact: true })).toBeVisible();
  await expect(toolbar.getByText('Veröffentlicht', { exact: true })).toHaveCount(0);

  // The rearranged toolbar passes axe (WCAG 2.2 AA).
  const toolbarAxe = await axeBuilder(page).include('#nc-root .cms-editor > :first-child').withTags(WCAG22_AA).analyze();
  expect(toolbarAxe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The language row over the form wraps; its buttons read whole.
  const copy = page.getByText('Text aus der anderen Sprache übernehmen').first();
  await expect(copy).toBeVisible();
  expect(await outOfWindowOrCut(page.locator('#nc-root [class*="LocaleRowWrapper"]').first())).toEqual([]);

  // The account menu opens within the screen.
  await toolbar.locator('[class*="AvatarDropdownButton"]').click();
  const signOut = page.locator('#nc-root [class*="DropdownList"]').filter({ hasText: 'Abmelden' });
  await expect(signOut).toBeVisible();
  const menu = await box(signOut);
  expect(menu.x).toBeGreaterThanOrEqual(0);
  expect(menu.x + menu.width).toBeLessThanOrEqual(390);
  await page.keyboard.press('Escape');

  // Over the page list, too.
  await page.getByRole('link', { name: /Zurück zur Übersicht/ }).click();
  await page.locator('#nc-root header [class*="AvatarDropdownButton"]').click();
  const listMenu = page.locator('#nc-root header [class*="DropdownList"]').filter({ hasText: 'Abmelden' });
  await expect(listMenu).toBeVisible();
  const root = await box(page.locator('#nc-root'));
  const opened = await box(listMenu);
  expect(opened.x, 'the menu starts within the editor').toBeGreaterThanOrEqual(root.x);
  expect(opened.x + opened.width).toBeLessThanOrEqual(root.x + root.width);
  await page.keyboard.press('Escape');
  await page.getByText('Hausarztpraxis Düsseldorf – Allgemeinmedizin und Vorsorge').click();
  await expect(page.getByLabel('Hauptüberschrift')).toHaveCount(2, { timeout: 60_000 });

  // Lists name their entries as written: German nouns keep their capitals.
  await expect(page.getByText(/^\d+ Leistungsbereiche$/).first()).toBeVisible();
  // (inside collapsed entries: present, not shown)
  await expect(page.getByText(/^\d+ Punkte$/).first()).toBeAttached();
  await expect(page.getByRole('button', { name: /^Eintrag hinzufügen/ }).first()).toBeVisible();
  await expect(page.getByText(/^\d+ (leistungsbereiche|punkte|notrufnummern)$/)).toHaveCount(0);
});

test('the editor page has one main landmark, on the page list and in an open entry, and passes axe there', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  await page.goto('/admin/inhalte');
  await expect(page.getByRole('link', { name: 'Startseite' })).toBeVisible({ timeout: 60_000 });
  // Decap's page list brings its own <main>; inside the back office's main it must not be a second one.
  await expect(page.getByRole('main')).toHaveCount(1);
  const listAxe = await axeBuilder(page).withTags(WCAG22_AA).analyze();
  expect(listAxe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary} ${n.html.slice(0, 300)}`).join(', ')}`)).toEqual([]);

  await page.getByRole('link', { name: 'Startseite' }).click();
  await page.getByText('Hausarztpraxis Düsseldorf – Allgemeinmedizin und Vorsorge').click();
  await expect(page.getByLabel('Hauptüberschrift')).toHaveCount(2, { timeout: 60_000 });
  await expect(page.getByRole('main')).toHaveCount(1);
  const landmarks = await axeBuilder(page)
    .withRules(['landmark-one-main', 'landmark-no-duplicate-main', 'landmark-main-is-top-level'])
    .analyze();
  expect(landmarks.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

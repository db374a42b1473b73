/**
 * A content editor signs in with the back-office account, changes the home
 * page's German heading in the editor at /admin/inhalte (at 1280 px: the
 * editor has the page's width), saves, follows the publication's state to
 * "live", and sees the change on / while /en/ is unchanged. The working
 * copy's diff is that one line, and the audit trail names page, language
 * and field. Runs on a second server in a copy of the project (a scratch
 * Git repository), so the repository's src/content and dist/ stay as they
 * are (docs/decisions/022-content-editor.md,
 * docs/decisions/031-content-editor-second-pass.md).
 */
import { execFileSync } from 'node:child_process';
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { ensureAdmin, signIn, ADMIN } from './helpers/admin';
import { copyProject, type ProjectCopy } from './helpers/project-copy';
import { startSecondServer, type SecondServer } from './helpers/second-server';

const NEW_HEADING = 'Willkommen in Ihrer Hausarztpraxis';

let copy: ProjectCopy;
let server: SecondServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  copy = await copyProject('content-editor');
  // A scratch clone of the content: the save's diff is read with git.
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.org', ...args], { cwd: copy.root });
  git('init', '-q');
  git('add', 'src/content');
  git('commit', '-q', '-m', 'content before the edit');
  server = await startSecondServer('content-editor', {}, { cwd: copy.root });
});
test.afterAll(async () => {
  await server?.stop();
  await copy?.remove();
});

/** Nothing wider than the window: no horizontal scrolling of the page or of the editor's box. */
async function expectNoHorizontalOverflow(page: Page) {
  const widths = await page.evaluate(() => {
    const box = document.getElementById('nc-root')!;
    return { page: document.documentElement.scrollWidth, window: window.innerWidth, box: box.scrollWidth, boxClient: box.clientWidth };
  });
  expect(widths.page).toBeLessThanOrEqual(widths.window);
  expect(widths.box).toBeLessThanOrEqual(widths.boxClient + 1);
}

function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

test('an editor changes the German home heading in the browser and sees it published after the rebuild', async ({ page }, testInfo) => {
  // A full `astro build` (with a cache of its own) on a busy two-core machine: the rebuild is most of this.
  test.setTimeout(720_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const base = server.url;
  const violations = watchCsp(page);
  await ensureAdmin(page, base);

  // Signed out, the editor leads to the sign-in page and back.
  await page.goto(`${base}/admin/inhalte`);
  await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Finhalte$/);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(`${base}/admin/inhalte`);

  // It is part of the back office's navigation.
  await page.goto(`${base}/admin`);
  await page.getByRole('navigation', { name: 'Admin-Navigation' }).getByRole('link', { name: 'Inhalte' }).click();
  await expect(page).toHaveURL(`${base}/admin/inhalte`);

  await page.getByRole('link', { name: 'Startseite' }).click();
  await page.getByText('Hausarztpraxis Düsseldorf – Allgemeinmedizin und Vorsorge').click();
  // Both languages side by side: the German heading first, the English one beside it.
  const headings = page.getByLabel('Hauptüberschrift');
  // Loading the entry can take a while on a busy machine.
  await expect(headings).toHaveCount(2, { timeout: 60_000 });
  await expect(headings.nth(0)).toHaveValue('Ihre Hausarztpraxis in Düsseldorf');
  await expect(headings.nth(1)).toHaveValue('Your family practice in Düsseldorf');

  // Room: the navigation is collapsed to icons, both language columns fit
  // in the window, nothing scrolls sideways, at 1280 and at 1440 px.
  await expect(page.getByRole('complementary', { name: 'Admin-Navigation' })).toHaveAttribute('data-state', 'collapsed');
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoHorizontalOverflow(page);
    for (const i of [0, 1]) {
      const box = (await headings.nth(i).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `heading ${i} at ${width} px`).toBeLessThanOrEqual(width);
      expect(box.width).toBeGreaterThan(300);
    }
    await page.screenshot({ path: testInfo.outputPath(`content-editor-${width}.png`) });
  }
  // Decap's German, corrected: no "Zurück zu allen Startseite".
  await expect(page.getByText('Zurück zur Übersicht: Startseite')).toBeVisible();
  await expect(page.getByText(/Zurück zu allen/)).toHaveCount(0);

  await headings.nth(0).fill(NEW_HEADING);
  await expect(page.getByText('Ungespeicherte Änderungen')).toBeVisible();
  await page.getByRole('button', { name: 'Veröffentlichen' }).click();
  await page.getByText('Jetzt veröffentlichen').click();
  await expect(page.getByText('Änderungen gespeichert')).toBeVisible({ timeout: 15_000 });

  // The publication's state, from waiting or running to live.
  const state = page.getByRole('status').filter({ hasText: 'Veröffentlichung' });
  await expect(state).toHaveText(/Veröffentlichung: (wartet|läuft)/, { timeout: 15_000 });
  await expect(state).toHaveText(/Veröffentlichung: live seit \d\d:\d\d/, { timeout: 600_000 });

  // One line changed in the working copy: the German heading, nothing else.
  const diff = execFileSync('git', ['diff', '--numstat', '--', 'src/content'], { cwd: copy.root, encoding: 'utf8' });
  expect(diff.trim()).toBe('1\t1\tsrc/content/de/home.md');
  expect(execFileSync('git', ['diff', '--', 'src/content/de/home.md'], { cwd: copy.root, encoding: 'utf8' })).toContain(`+  heading: ${NEW_HEADING}`);

  await page.goto(`${base}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(NEW_HEADING);
  await page.goto(`${base}/en/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your family practice in Düsseldorf');

  // The audit trail names page, language and field, never the text.
  await page.goto(`${base}/admin/audit`);
  await expect(page.getByText('Startseite (de): Kopfbereich › Hauptüberschrift').first()).toBeVisible();
  await expect(page.getByText(NEW_HEADING)).toHaveCount(0);
  expect(violations).toEqual([]);
});

test('public pages load nothing of the editor, and the service worker does not precache it', async ({ page }) => {
  const editorRequests: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/_astro/content-editor/')) editorRequests.push(r.url());
  });
  for (const path of ['/', '/en/', '/termin', '/kontakt', '/team']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(editorRequests).toEqual([]);
  const worker = await (await page.request.get('/sw.js')).text();
  expect(worker).toContain('index.html');
  expect(worker).not.toContain('_astro/content-editor/');
});

/**
 * Issue 23: a content editor signs in with the back-office account, changes
 * the home page's German heading in the editor at /admin/inhalte, saves,
 * and after the local rebuild sees it on / while /en/ is unchanged. Runs on
 * a second server in a copy of the project, so the repository's
 * src/content and dist/ stay as they are.
 */
import { expect, test, type Page } from '@playwright/test';
import { ensureAdmin, signIn, ADMIN } from './helpers/admin';
import { copyProject, type ProjectCopy } from './helpers/project-copy';
import { startSecondServer, type SecondServer } from './helpers/second-server';

const NEW_HEADING = 'Willkommen in Ihrer Hausarztpraxis';

let copy: ProjectCopy;
let server: SecondServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  copy = await copyProject('content-editor');
  server = await startSecondServer('content-editor', {}, { cwd: copy.root });
});
test.afterAll(async () => {
  await server?.stop();
  await copy?.remove();
});

function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

test('an editor changes the German home heading in the browser and sees it published after the rebuild', async ({ page }) => {
  // A full `astro build` on a busy two-core machine: the rebuild is most of this.
  test.setTimeout(300_000);
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
  await expect(headings).toHaveCount(2);
  await expect(headings.nth(0)).toHaveValue('Ihre Hausarztpraxis in Düsseldorf');
  await expect(headings.nth(1)).toHaveValue('Your family practice in Düsseldorf');
  await headings.nth(0).fill(NEW_HEADING);
  await expect(page.getByText('Ungespeicherte Änderungen')).toBeVisible();
  await page.getByRole('button', { name: 'Veröffentlichen' }).click();
  await page.getByText('Jetzt veröffentlichen').click();
  await expect(page.getByText('Änderungen gespeichert')).toBeVisible({ timeout: 15_000 });

  // The pages are rebuilt; the editor reloads the home page until it shows.
  await expect(async () => {
    await page.goto(`${base}/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(NEW_HEADING, { timeout: 1000 });
  }).toPass({ timeout: 240_000, intervals: [5000] });
  await page.goto(`${base}/en/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your family practice in Düsseldorf');
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

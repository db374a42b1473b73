import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './helpers/test';
import { ADMIN, hydrated, signIn } from './helpers/admin';

test.describe.serial('admin access', () => {
  test('without a session /admin leads to /auth', async ({ page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Admin-Anmeldung' })).toBeVisible();
    await expect(page.locator('meta[name=robots]')).toHaveAttribute('content', 'noindex');
  });

  test('first-admin setup: the default secret is hinted, a wrong one is refused, the right one creates the admin', async ({ page }) => {
    await page.goto('/admin-setup');
    await expect(page.getByText('Das Standard-Geheimwort lautet „praxis-setup“')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Hier anmelden' })).toHaveAttribute('href', '/auth');

    await page.getByLabel('E-Mail').fill(ADMIN.email);
    await page.getByLabel('Passwort', { exact: true }).fill('kurz');
    await page.getByLabel('Admin-Geheimwort').fill('falsch');
    await page.getByRole('button', { name: 'Admin-Benutzer erstellen' }).click();
    await expect(page.getByText('Das Passwort muss mindestens 12 Zeichen haben.')).toBeVisible();

    await page.getByLabel('Passwort', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Admin-Benutzer erstellen' }).click();
    await expect(page.getByText('Fehler bei der Admin-Erstellung')).toBeVisible();
    await expect(page.getByText('Das Admin-Geheimwort ist falsch.')).toBeVisible();

    await page.getByLabel('Admin-Geheimwort').fill('praxis-setup');
    await page.getByRole('button', { name: 'Admin-Benutzer erstellen' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByText('Admin-Benutzer erstellt!')).toBeVisible();
    await expect(page.getByText('Sie können sich jetzt mit Ihren Daten anmelden.')).toBeVisible();

    // Now that an admin exists, the setup page sends visitors to the login.
    await page.goto('/admin-setup');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('a wrong password shows the failure toast with the German server message', async ({ page }) => {
    await page.goto('/auth');
    await signIn(page, ADMIN.email, 'falsches-passwort');
    await expect(page.getByText('Anmeldung fehlgeschlagen')).toBeVisible();
    await expect(page.getByText('E-Mail-Adresse oder Passwort ist falsch.')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('login → admin area → sidebar → logout → back to /auth', async ({ page, context }) => {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto('/auth');
    await hydrated(page);
    const password = page.getByLabel('Passwort', { exact: true });
    await password.fill(ADMIN.password);
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Passwort anzeigen' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Passwort verbergen' }).click();
    await expect(password).toHaveAttribute('type', 'password');

    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByText('Erfolgreich angemeldet')).toBeVisible();
    // The header names the page; "Zur Terminbuchung" opens the booking page.
    await expect(page.getByRole('banner').getByText('Dashboard', { exact: true })).toBeVisible();
    await expect(page.getByText(ADMIN.email)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Zur Terminbuchung' })).toHaveAttribute('href', '/termin');
    await expect(page.getByText('Gebuchte Termine gesamt')).toBeVisible();

    const cookies = await context.cookies();
    for (const name of ['praxis_access', 'praxis_refresh']) {
      const c = cookies.find((x) => x.name === name);
      expect(c, name).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    }
    expect(await page.evaluate(() => document.cookie)).not.toContain('praxis_');

    const nav = page.getByRole('navigation', { name: 'Admin-Navigation' });
    for (const [label, href] of [
      ['Dashboard', '/admin'],
      ['Terminarten', '/admin/appointment-types'],
      ['Zeitfenster', '/admin/time-slots'],
      ['Gesperrte Tage', '/admin/blocked-dates'],
      ['Gebuchte Termine', '/admin/booked-slots'],
      ['Inventarverwaltung', '/admin/inventory'],
    ] as const) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href);
    }
    await nav.getByRole('link', { name: 'Inventarverwaltung' }).click();
    await expect(page).toHaveURL(/\/admin\/inventory$/);
    await expect(page.getByRole('heading', { name: 'Inventarverwaltung' })).toBeVisible();

    // Ctrl+B collapses the sidebar to icons; the state survives a reload (cookie, 7 days).
    const sidebar = page.getByRole('complementary', { name: 'Admin-Navigation' });
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await expect(sidebar).toHaveCSS('width', '256px');
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect(sidebar).toHaveCSS('width', '48px');
    const state = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(state?.value).toBe('false');
    expect(state!.expires * 1000 - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    await page.reload();
    await expect(page.getByRole('complementary', { name: 'Admin-Navigation' })).toHaveAttribute('data-state', 'collapsed');
    await page.getByRole('button', { name: 'Seitenleiste umschalten' }).click();
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');

    await page.getByRole('button', { name: 'Abmelden' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByText('Erfolgreich abgemeldet')).toBeVisible();
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/auth$/);
    // The islands, toasts and dialogs all run under the site's CSP.
    expect(violations).toEqual([]);
  });

  test('under 768 px the sidebar is a drawer', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/auth');
    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page.getByRole('banner').getByText('Dashboard', { exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Admin-Navigation' })).toBeHidden();
    await page.getByRole('button', { name: 'Seitenleiste umschalten' }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveCSS('width', '288px');
    await drawer.getByRole('link', { name: 'Zeitfenster' }).click();
    await expect(page).toHaveURL(/\/admin\/time-slots$/);
    await expect(page.getByRole('heading', { name: 'Zeitfenster' })).toBeVisible();
  });
});

/**
 * There is no sign-up, so a non-admin exists only in the database. The
 * e2e server's embedded database belongs to that server's process, so this
 * test starts a second server in its own process with its own database.
 */
test('a signed-in user without the admin role is sent to the home page', async ({ page }) => {
  // A second embedded database in this process, in memory: a copy of the
  // migrated image (db/pglite.ts) in about a second, where creating and
  // migrating one on disk took 27 s on the 2-core machine.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'praxis-nonadmin-'));
  const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
  process.env.DATABASE_URL = 'pglite:memory';
  process.env.DATA_DIR = dir;
  const { getDb, closeDb } = await import('../../src/server/database.server');
  const { users } = await import('../../db/schema');
  const { hashPassword } = await import('../../src/server/auth/password.server');
  const { SECURITY_HEADERS } = await import('../../src/server/security-headers');
  const { startLocalServer } = await import('../../scripts/local-server');
  const db = await getDb();
  await db.insert(users).values({ email: 'mfa@example.org', passwordHash: await hashPassword('nur-personal') });
  const server = await startLocalServer({
    port: 0,
    distDir: 'dist',
    functionsDir: 'netlify/functions',
    headers: { ...SECURITY_HEADERS },
    log: () => {},
  });
  try {
    await page.goto(`${server.url}/auth`);
    await signIn(page, 'mfa@example.org', 'nur-personal');
    await expect(page).toHaveURL(`${server.url}/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihre Hausarztpraxis in Düsseldorf');
  } finally {
    await server.close();
    await closeDb();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

import { expect, test } from './helpers/test';

test.describe('public layout', () => {
  test('German home page: language, navigation, footer links', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' }).first();
    for (const [label, href] of <Array<[string, string]>>[
      ['Praxis', '/'],
      ['Online buchen', '/termin'],
      ['Laboruntersuchungen', '/laboruntersuchungen'],
      ['Team', '/team'],
      ['Kontakt', '/kontakt'],
    ]) {
      await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href);
    }
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Impressum' })).toHaveAttribute('href', '/impressum');
    await expect(footer.getByRole('link', { name: 'Datenschutz' })).toHaveAttribute('href', '/datenschutz');
    await expect(footer.getByRole('link', { name: 'App installieren' })).toHaveAttribute('href', '/install');
    await expect(footer.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/auth');
    await expect(footer).toContainText('08:20–13:40');
    await expect(page.locator('link[rel=alternate][hreflang=en]')).toHaveAttribute('href', /\/en\/$/);
  });

  test('the language switch leads to the English twin', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'English version' }).click();
    await expect(page).toHaveURL(/\/en\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).first().getByRole('link', { name: 'Book Online' })).toHaveAttribute(
      'href',
      '/en/termin',
    );
  });

  test('an unknown path shows the 404 page with a link home', async ({ page }) => {
    const response = await page.goto('/gibt-es-nicht');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Diese Seite gibt es leider nicht' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Zur Startseite' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihre Hausarztpraxis in Düsseldorf');
  });

  test('the home page loads no framework JavaScript', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((u) => /client\.|react/i.test(u))).toEqual([]);
  });

  test('mobile menu opens, traps focus and closes with Escape', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menü öffnen' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('button', { name: 'Menü schließen' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Menü schließen' })).toBeHidden();
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('API on the built site', () => {
  test('GET /api/appointment-types lists the seeded consultation types of a fresh site', async ({ request }) => {
    const res = await request.get('/api/appointment-types');
    expect(res.status()).toBe(200);
    const types = (await res.json()) as Array<{ name: string; max_advance_days: number }>;
    const names = types.map((t) => t.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(names).toEqual(expect.arrayContaining(['Akutsprechstunde', 'Check-up', 'Impfung']));
  });
});

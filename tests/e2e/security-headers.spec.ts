import { expect, test } from './helpers/test';
import { hydrated } from './helpers/admin';

test.describe('Content-Security-Policy in the browser', () => {
  test('the page\'s own inline scripts run and no violation is reported', async ({ page }) => {
    const violations: string[] = [];
    const logs: string[] = [];
    page.on('console', (m) => {
      logs.push(m.text());
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    // The 404 page logs its path from an inline script; the login page hydrates
    // an island through Astro's inline island runtime (it never redirects, unlike
    // /admin-setup once another test has created the admin).
    const res = await page.goto('/unbekannte-seite');
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await expect.poll(() => logs).toContain('404: /unbekannte-seite');
    await page.goto('/auth');
    // The toggle works once the island has hydrated (the page is interactive).
    await hydrated(page);
    await page.getByLabel('Passwort', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Passwort anzeigen' }).click();
    await expect(page.getByLabel('Passwort', { exact: true })).toHaveAttribute('type', 'text');
    expect(violations).toEqual([]);
  });

  test('an injected inline script is blocked', async ({ page }) => {
    await page.goto('/');
    const result = await page.evaluate(async () => {
      const violation = new Promise<string>((resolve) =>
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true }),
      );
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.appendChild(script);
      // The report follows at once; the bound only ends a run in which none comes.
      const directive = await Promise.race([violation, new Promise<string>((r) => setTimeout(() => r('none'), 10_000))]);
      return { ran: (window as unknown as { __injected?: boolean }).__injected === true, directive };
    });
    expect(result).toEqual({ ran: false, directive: 'script-src-elem' });
  });

  test('an inline event handler is blocked too', async ({ page }) => {
    await page.goto('/');
    const ran = await page.evaluate(async () => {
      const img = document.createElement('img');
      img.setAttribute('onerror', 'window.__handler = true');
      // Listeners run in the order they were added: the attribute's handler
      // (if allowed) before this one, so this one sees whether it ran.
      const failed = new Promise((resolve) => img.addEventListener('error', resolve, { once: true }));
      img.src = 'data:,broken';
      document.body.appendChild(img);
      await failed;
      return (window as unknown as { __handler?: boolean }).__handler === true;
    });
    expect(ran).toBe(false);
  });
});

test.describe('islands that validate forms run under the CSP', () => {
  for (const [path, submit] of [
    ['/kontakt', /Nachricht senden|Senden/],
    ['/en/kontakt', /Send/],
  ] as const) {
    test(`${path}: validating the form raises no CSP violation (zod runs without eval)`, async ({ page }) => {
      await page.addInitScript(() => {
        (window as unknown as { violations: string[] }).violations = [];
        document.addEventListener('securitypolicyviolation', (e) => {
          (window as unknown as { violations: string[] }).violations.push(`${e.violatedDirective} ${e.sourceFile}`);
        });
      });
      await page.goto(path);
      // The island hydrates on the first interaction with the form (client:interaction).
      await page.locator('form').hover();
      await expect(page.locator('astro-island')).not.toHaveAttribute('ssr', /.*/);
      await page.getByRole('button', { name: submit }).click();
      await page.getByRole('textbox').first().fill('Erika Mustermann');
      await page.getByRole('button', { name: submit }).click();
      // Validated: the fields still empty are marked (the check ran; any eval would have been reported before).
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    });
  }
});

/**
 * "Systemstatus" in the back office (docs/decisions/045-operations.md):
 * German, its figures in sections a screen reader can jump between, at
 * 1280 and 360 px with nothing scrolling sideways, and axe finds nothing;
 * the alerts switch under "Mein Konto" is saved. The probe answers the
 * same server.
 */
import { expect, test } from './helpers/test';
import { signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';
import { expectFitsScreen, PHONE } from './helpers/phone';

for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
  test(`Systemstatus at ${viewport.width} px: every section, nothing sideways, no axe violation`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInAsAdmin(page);
    await page.goto('/admin/system');
    await expect(page.getByRole('heading', { level: 1, name: 'Systemstatus' })).toBeVisible();
    for (const section of ['Minütliche Aufgabe', 'Postausgang', 'E-Mail-Adresse der Praxis', 'SMS in diesem Monat', 'Gespeicherte Patientendaten (verschlüsselt)', 'Version']) {
      await expect(page.getByRole('region', { name: section })).toBeVisible();
    }
    const version = page.getByRole('region', { name: 'Version' });
    await expect(version.getByText(/– aktuell$/)).toBeVisible();
    await expect(version.getByText(/^v\d+\./)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Postausgang' }).getByRole('heading', { name: 'E-Mail' })).toBeVisible();
    await expectFitsScreen(page, `Systemstatus at ${viewport.width} px`);
    await expectNoAxeViolations(page, `Systemstatus at ${viewport.width} px`);
  });
}

test('the alerts switch under "Mein Konto" is saved, and the health probe answers', async ({ page, request }) => {
  await signInAsAdmin(page);
  await page.goto('/admin/konto');
  const toggle = () => page.getByRole('checkbox', { name: 'Störungsmeldungen an meine E-Mail-Adresse schicken' });
  await expect(toggle()).toBeEnabled();
  const before = await toggle().isChecked();
  await toggle().setChecked(!before);
  await expect(page.getByText('Gespeichert')).toBeVisible();
  await page.reload();
  await expect(toggle()).toBeEnabled();
  expect(await toggle().isChecked()).toBe(!before);
  await expectNoAxeViolations(page, 'Mein Konto with the alerts switch');

  const health = await request.get('/api/health');
  expect([200, 503]).toContain(health.status());
  expect(health.headers()['x-request-id']).toBeTruthy();
  expect(Object.keys((await health.json()).checks).sort()).toEqual(['database', 'job', 'keys', 'mail', 'migrations', 'outbox']);
});

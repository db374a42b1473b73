/**
 * The staff second factor end to end (docs/decisions/027-staff-second-factor.md),
 * on a 360 px phone: a colleague sets it up under "Mein Konto" with a code
 * computed here from the secret the page shows, keeps the recovery codes,
 * signs out and signs in again with password and code. The e2e admin keeps
 * signing in without a factor (the other specs rely on it).
 */
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { now } from './helpers/clock';
import { Secret, TOTP } from 'otpauth';
import { hydrated, signIn, signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';

const COLLEAGUE = { email: `zwei-faktor-${Date.now()}@example.org`, password: 'zwei-faktor-passwort-123' };

/** "The app": codes and steps on the suite's clock, which the server's check also reads. */
function totpOf(secret: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return { counter: () => totp.counter({ timestamp: now().getTime() }), generate: () => totp.generate({ timestamp: now().getTime() }) };
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test('a colleague sets up the second factor at 360 px, signs out and in again with a code; the admin still signs in with the password alone', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  const created = await page.request.post('/api/admin/users', { data: { email: COLLEAGUE.email, password: COLLEAGUE.password } });
  expect(created.status()).toBe(201);

  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const phone = await context.newPage();
  try {
    await phone.goto('/auth');
    await signIn(phone, COLLEAGUE.email, COLLEAGUE.password);
    await expect(phone).toHaveURL(/\/admin$/);

    await phone.goto('/admin/konto');
    await expect(phone.getByRole('heading', { name: 'Mein Konto', level: 1 })).toBeVisible();
    await expect(phone.getByText('Nicht eingerichtet.')).toBeVisible();
    await phone.getByRole('button', { name: 'Zwei-Faktor-Anmeldung einrichten' }).click();
    // Setting up a factor needs the current password (docs/decisions/037-passkeys-sessions-guessing.md).
    const totpSection = phone.getByRole('region', { name: 'Zwei-Faktor-Anmeldung' });
    await totpSection.getByLabel(/Aktuelles Passwort/).fill(COLLEAGUE.password);
    await totpSection.getByRole('button', { name: 'Weiter' }).click();
    const qr = phone.getByRole('img', { name: 'QR-Code für die Authenticator-App' });
    await expect(qr).toBeVisible();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    // The QR code drew in full (an image the policy blocked has no natural width).
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await noSidewaysScroll(phone);
    await expectNoAxeViolations(phone, 'Mein Konto: Einrichtung');

    // The secret as the page shows it (in groups of four), typed into "the app" here.
    const shown = (await phone.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    expect(shown).toMatch(/^[A-Z2-7]{32}$/);
    const totp = totpOf(shown);
    const enrolledStep = totp.counter();
    await phone.getByLabel('Code aus der App').fill(totp.generate());
    await phone.getByRole('button', { name: 'Bestätigen' }).click();

    const codes = phone.getByRole('list', { name: 'Wiederherstellungscodes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await expect(codes.first()).toHaveText(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await noSidewaysScroll(phone);
    await phone.getByRole('button', { name: 'Ich habe die Codes sicher aufbewahrt' }).click();
    await expect(phone.getByText('Eingerichtet. Noch 10 unbenutzte Wiederherstellungscodes.')).toBeVisible();

    await phone.getByRole('button', { name: 'Abmelden', exact: true }).click();
    await expect(phone).toHaveURL(/\/auth$/);

    // Password first, then the code step; no session before the code.
    await signIn(phone, COLLEAGUE.email, COLLEAGUE.password);
    const codeField = phone.getByLabel('Code', { exact: true });
    await expect(codeField).toBeVisible();
    await expect(phone).toHaveURL(/\/auth$/);
    expect((await phone.request.get('/api/auth/session')).status()).toBe(401);
    await noSidewaysScroll(phone);
    await expectNoAxeViolations(phone, 'Anmeldung: Code');

    // The enrolment's code is used: a wrong one is refused in German, the next step's code opens the session.
    await codeField.fill('000000');
    await phone.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(phone.getByText('Der Code ist ungültig oder wurde bereits verwendet.').first()).toBeVisible();
    await expect.poll(() => totp.counter(), { timeout: 35_000, intervals: [500] }).toBeGreaterThan(enrolledStep);
    await codeField.fill(totp.generate());
    await phone.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(phone).toHaveURL(/\/admin$/);
    await expect(phone.getByText(COLLEAGUE.email)).toBeVisible();
    await noSidewaysScroll(phone);
  } finally {
    await context.close();
  }

  // The admin, without a factor, still signs in with the password alone and sees the colleague's factor in Benutzer.
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await signInAsAdmin(page);
  await page.goto('/admin/users');
  await hydrated(page);
  const row = page.getByRole('row').filter({ hasText: COLLEAGUE.email });
  await expect(row.getByRole('cell', { name: 'eingerichtet', exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Zwei-Faktor-Anmeldung von ${COLLEAGUE.email} zurücksetzen` })).toBeVisible();
});

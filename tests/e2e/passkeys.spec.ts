/**
 * Passkeys end to end in Chromium (docs/decisions/037-passkeys-sessions-guessing.md),
 * with Chromium's virtual authenticator (DevTools protocol: WebAuthn,
 * CTAP2, internal, user verification): a colleague adds a passkey under
 * "Mein Konto", signs out, signs in with "Mit Passkey anmelden" (no
 * password, no code), sees the device under "Angemeldete Geräte", removes
 * the passkey, and a sign-in with it is refused.
 */
import { expect, test } from './helpers/test';
import { hydrated, signIn, signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';

const COLLEAGUE = { email: `passkey-${Date.now()}@example.org`, password: 'passkey-passwort-12345' };

test('a colleague adds a passkey, signs in with it alone, removes it, and it no longer signs in', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  const created = await page.request.post('/api/admin/users', { data: { email: COLLEAGUE.email, password: COLLEAGUE.password } });
  expect(created.status()).toBe(201);

  const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const laptop = await context.newPage();
  const cdp = await context.newCDPSession(laptop);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  try {
    await laptop.goto('/auth');
    await signIn(laptop, COLLEAGUE.email, COLLEAGUE.password);
    await expect(laptop).toHaveURL(/\/admin$/);

    // "Mein Konto": name the passkey, confirm with the password, the authenticator makes it.
    await laptop.goto('/admin/konto');
    await hydrated(laptop);
    const passkeys = laptop.getByRole('region', { name: 'Passkeys' });
    await expect(passkeys.getByText('Noch keine Passkeys.')).toBeVisible();
    await passkeys.getByRole('button', { name: 'Passkey hinzufügen' }).click();
    await passkeys.getByRole('textbox', { name: /Name des Passkeys/ }).fill('Laptop Empfang');
    await passkeys.getByLabel(/Aktuelles Passwort/).fill(COLLEAGUE.password);
    await passkeys.getByRole('button', { name: 'Passkey anlegen' }).click();
    const item = passkeys.getByRole('listitem').filter({ hasText: 'Laptop Empfang' });
    await expect(item).toBeVisible();
    await expect(item).toContainText('Zuletzt verwendet: noch nie');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    expect(credentials[0]!.rpId).toBe('localhost');
    await expectNoAxeViolations(laptop, 'Mein Konto: Passkeys und Geräte');

    await laptop.getByRole('button', { name: 'Abmelden', exact: true }).click();
    await expect(laptop).toHaveURL(/\/auth$/);

    // "Mit Passkey anmelden": no email, no password, no code step.
    await hydrated(laptop);
    await laptop.getByRole('button', { name: 'Mit Passkey anmelden' }).click();
    await expect(laptop).toHaveURL(/\/admin$/);
    await expect(laptop.getByText(COLLEAGUE.email)).toBeVisible();
    const session = await laptop.request.get('/api/auth/session');
    expect(session.status()).toBe(200);
    expect((await session.json()).secondFactor).toBe('passed');
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount).toBeGreaterThan(0);

    // The passkey's last use shows; "Angemeldete Geräte" marks this browser.
    await laptop.goto('/admin/konto');
    await hydrated(laptop);
    await expect(passkeys.getByRole('listitem').filter({ hasText: 'Laptop Empfang' })).not.toContainText('noch nie');
    const devices = laptop.getByRole('region', { name: 'Angemeldete Geräte' });
    await expect(devices.getByRole('listitem').filter({ hasText: 'Dieses Gerät' })).toContainText(/Chrome \d+ auf (Windows|Linux|macOS)/);

    // Removing it takes the password.
    await passkeys.getByRole('button', { name: 'Passkey „Laptop Empfang“ entfernen' }).click();
    const dialog = laptop.getByRole('dialog', { name: 'Passkey „Laptop Empfang“ entfernen?' });
    await dialog.getByLabel('Aktuelles Passwort', { exact: true }).fill(COLLEAGUE.password);
    await dialog.getByRole('button', { name: 'Entfernen' }).click();
    await expect(passkeys.getByText('Noch keine Passkeys.')).toBeVisible();

    // The authenticator still holds the key, but the site no longer knows it.
    await laptop.getByRole('button', { name: 'Abmelden', exact: true }).click();
    await expect(laptop).toHaveURL(/\/auth$/);
    await hydrated(laptop);
    await laptop.getByRole('button', { name: 'Mit Passkey anmelden' }).click();
    await expect(laptop.getByText('Der Passkey wurde nicht erkannt. Bitte versuchen Sie es erneut oder melden Sie sich mit Passwort an.')).toBeVisible();
    await expect(laptop).toHaveURL(/\/auth$/);
    expect((await laptop.request.get('/api/auth/session')).status()).toBe(401);
  } finally {
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }).catch(() => {});
    await context.close();
  }
});

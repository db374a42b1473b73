/**
 * Setting up the second factor on a 360 px phone
 * (docs/decisions/027-staff-second-factor.md): beside the QR code a link
 * with the otpauth:// address opens the authenticator app on the phone
 * itself; the recovery codes are copied to the clipboard, downloaded as a
 * .txt file and printed alone (the PDF holds the codes and nothing else
 * of the page). A colleague of its own, so the e2e admin keeps signing in
 * without a factor.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './helpers/test';
import { now } from './helpers/clock';
import { Secret, TOTP } from 'otpauth';
import { signIn, signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';
import { expectFitsScreen, PHONE } from './helpers/phone';
import { printedPages } from './helpers/print';

const COLLEAGUE = { email: `codes-${Date.now()}@example.org`, password: 'codes-passwort-12345' };

test('at 360 px: the otpauth:// link beside the QR code; the recovery codes copied, downloaded and printed alone', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  expect((await page.request.post('/api/admin/users', { data: { email: COLLEAGUE.email, password: COLLEAGUE.password } })).status()).toBe(201);

  const context = await browser.newContext({ viewport: PHONE, locale: 'de-DE', timezoneId: 'Europe/Berlin', acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const phone = await context.newPage();
  try {
    await phone.goto('/auth');
    await signIn(phone, COLLEAGUE.email, COLLEAGUE.password);
    await expect(phone).toHaveURL(/\/admin$/);
    await phone.goto('/admin/konto');
    await phone.getByRole('button', { name: 'Zwei-Faktor-Anmeldung einrichten' }).click();
    // Setting up a factor asks for the current password first.
    const totpSection = phone.getByRole('region', { name: 'Zwei-Faktor-Anmeldung' });
    await totpSection.getByLabel(/Aktuelles Passwort/).fill(COLLEAGUE.password);
    await totpSection.getByRole('button', { name: 'Weiter' }).click();

    // The link holds the same key as the QR code and the text beside it.
    const link = phone.getByRole('link', { name: 'In der Authenticator-App öffnen' });
    await expect(link).toBeVisible();
    const secret = (await phone.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(href).searchParams.get('secret')).toBe(secret);
    await expectFitsScreen(phone, 'Mein Konto: QR-Code mit Link');
    await expectNoAxeViolations(phone, 'Mein Konto: QR-Code mit Link');

    await phone.getByLabel('Code aus der App').fill(new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: now().getTime() }));
    await phone.getByRole('button', { name: 'Bestätigen' }).click();
    const list = phone.getByRole('list', { name: 'Wiederherstellungscodes' });
    await expect(list.getByRole('listitem')).toHaveCount(10);
    const codes = await list.getByRole('listitem').allInnerTexts();
    const actions = phone.getByRole('group', { name: 'Codes aufbewahren' });
    await expect(actions.getByRole('button')).toHaveText(['Kopieren', 'Herunterladen', 'Drucken']);
    await expectFitsScreen(phone, 'Mein Konto: Wiederherstellungscodes');
    await expectNoAxeViolations(phone, 'Mein Konto: Wiederherstellungscodes');

    // Kopieren: every code on the clipboard, one a line.
    await actions.getByRole('button', { name: 'Kopieren' }).click();
    await expect(phone.getByText('Codes in die Zwischenablage kopiert')).toBeVisible();
    const clipboard = await phone.evaluate(() => navigator.clipboard.readText());
    expect(clipboard.split(/\r?\n/)).toEqual(expect.arrayContaining(codes));

    // Herunterladen: a .txt file with every code.
    const [download] = await Promise.all([phone.waitForEvent('download'), actions.getByRole('button', { name: 'Herunterladen' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^wiederherstellungscodes-localhost-\d+\.txt$/);
    const file = await readFile((await download.path())!, 'utf8');
    for (const code of codes) expect(file).toContain(code);

    // Drucken: the browser's print dialog (stubbed here) prints the codes alone.
    await phone.evaluate(() => {
      window.print = () => void 0;
    });
    await actions.getByRole('button', { name: 'Drucken' }).click();
    const { pages } = await printedPages(phone);
    const paper = pages.join(' ');
    for (const code of codes) expect(paper).toContain(code);
    expect(paper).toContain('Wiederherstellungscodes');
    for (const elsewhere of ['Mein Konto', 'Kopieren', 'Ich habe die Codes sicher aufbewahrt', 'Abmelden']) expect(paper).not.toContain(elsewhere);
    // Closing the print dialog gives the page back.
    await phone.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await expect(phone.locator('html')).not.toHaveAttribute('data-print-only');
  } finally {
    await context.close();
  }
});

/**
 * Staff accounts (docs/decisions/010) end to end: an admin adds a colleague who then signs in, an
 * invitation link, an own password change that signs out the other
 * device, a reset link from "Passwort vergessen", the audit trail, and the
 * day list printed on A4 without navigation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday } from './helpers/clock';
import { publicHolidayOn } from '../../src/lib/holidays';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { formatLongDate } from '../../src/lib/dates';
import { readOutbox } from '../helpers/eml';
import { ADMIN, hydrated, signIn, signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';
import { bookingRequest, testCaller } from '../helpers/patient';
import { extractText, getDocumentProxy } from 'unpdf';
import { expectFramed } from './helpers/print';

const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');
const stamp = Date.now();
const COLLEAGUE = { email: `kollegin-${stamp}@example.org`, password: 'start-passwort-123', next: 'geaendert-passwort-456' };
const INVITED = { email: `eingeladen-${stamp}@example.org`, password: 'eigenes-passwort-789' };

/** The path and query of the newest password link emailed to an address. */
async function linkFor(address: string, subject: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(async () => {
      const mails = (await readOutbox(outbox())).filter((m) => m.headers.to === address && m.subject === subject);
      const match = /https?:\/\/[^\s]+\/auth\/reset\?token=[A-Za-z0-9_-]{43}/.exec(mails.at(-1)?.text ?? '');
      found = match ? new URL(match[0]).pathname + new URL(match[0]).search : undefined;
      return found;
    })
    .toBeTruthy();
  return found!;
}

const axe = expectNoAxeViolations;

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/auth$/);
}

test.describe.serial('staff accounts, audit trail and day list', () => {
  test('an admin adds a colleague with an initial password; the colleague signs in', async ({ page }) => {
    await signInAsAdmin(page);
    await page.getByRole('navigation', { name: 'Admin-Navigation' }).getByRole('link', { name: 'Benutzer', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Benutzer', level: 1 })).toBeVisible();
    await expect(page.getByRole('cell', { name: `${ADMIN.email} (Sie)` })).toBeVisible();
    await axe(page, 'Benutzer');

    await page.getByRole('button', { name: 'Kollegen hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Kollegen hinzufügen' });
    await dialog.getByRole('textbox', { name: 'E-Mail' }).fill(COLLEAGUE.email);
    await dialog.getByLabel('Startpasswort vergeben').check();
    await dialog.getByRole('textbox', { name: 'Startpasswort', exact: true }).fill('kurz');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Das Passwort muss mindestens 12 Zeichen haben.')).toBeVisible();
    await axe(page, 'Kollegen hinzufügen');
    await dialog.getByRole('textbox', { name: 'Startpasswort', exact: true }).fill(COLLEAGUE.password);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Benutzer angelegt')).toBeVisible();
    await expect(page.getByRole('cell', { name: COLLEAGUE.email, exact: true })).toBeVisible();

    await signOut(page);
    await signIn(page, COLLEAGUE.email, COLLEAGUE.password);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByText(COLLEAGUE.email)).toBeVisible();
  });

  test('an invitation shows as pending and can be sent again; its link names the account, sets a password and works once', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/users');
    await page.getByRole('button', { name: 'Kollegen hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Kollegen hinzufügen' });
    await dialog.getByRole('textbox', { name: 'E-Mail' }).fill(INVITED.email);
    await expect(dialog.getByLabel('Einladung per E-Mail senden')).toBeChecked();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Einladung gesendet')).toBeVisible();
    const first = await linkFor(INVITED.email, 'Einladung zur Praxis-Verwaltung');
    // Pending with its expiry; sent again, the first link stops working.
    const row = page.getByRole('row').filter({ hasText: INVITED.email });
    await expect(row).toContainText(/eingeladen, Link gültig bis \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr/);
    await row.getByRole('button', { name: `Einladung an ${INVITED.email} erneut senden` }).click();
    await expect(page.getByText(`Neue Einladung an ${INVITED.email} gesendet`)).toBeVisible();
    let link = first;
    await expect.poll(async () => (link = await linkFor(INVITED.email, 'Einladung zur Praxis-Verwaltung'))).not.toBe(first);
    await signOut(page);

    await page.goto(first);
    await expect(page.getByRole('alert')).toContainText('Der Link ist ungültig, abgelaufen oder wurde bereits verwendet.');
    await page.goto(link);
    await hydrated(page);
    await expect(page.getByRole('heading', { name: 'Neues Passwort festlegen' })).toBeVisible();
    await expect(page.getByText(`Einladung zur Praxis-Verwaltung für ${INVITED.email}`)).toBeVisible();
    await expect(page.getByLabel('Konto (E-Mail)')).toHaveValue(INVITED.email);
    await axe(page, 'Neues Passwort festlegen');
    await page.getByLabel('Neues Passwort').fill(INVITED.password);
    await page.getByRole('button', { name: 'Passwort speichern' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByText('Passwort gespeichert')).toBeVisible();
    await signIn(page, INVITED.email, INVITED.password);
    await expect(page).toHaveURL(/\/admin$/);

    // Used once, the link says so at once, before anyone types a password.
    await page.goto(link);
    await expect(page.getByRole('alert')).toContainText('Der Link ist ungültig, abgelaufen oder wurde bereits verwendet.');
    await expect(page.getByLabel('Neues Passwort')).toHaveCount(0);
  });

  test('a password change needs the current password and signs out the other device', async ({ page, browser }) => {
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto('/auth');
    await signIn(otherPage, COLLEAGUE.email, COLLEAGUE.password);
    await expect(otherPage).toHaveURL(/\/admin$/);

    await page.goto('/auth');
    await signIn(page, COLLEAGUE.email, COLLEAGUE.password);
    await expect(page).toHaveURL(/\/admin$/);
    await page.getByRole('navigation', { name: 'Admin-Navigation' }).getByRole('link', { name: 'Passwort ändern' }).click();
    await expect(page.getByRole('heading', { name: 'Passwort ändern', level: 1 })).toBeVisible();
    await page.getByLabel('Aktuelles Passwort').fill('falsch-000');
    await page.getByLabel(/^Neues Passwort/).fill(COLLEAGUE.next);
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(page.getByText('Das aktuelle Passwort ist falsch.').first()).toBeVisible();
    await axe(page, 'Passwort ändern');
    await page.getByLabel('Aktuelles Passwort').fill(COLLEAGUE.password);
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(page.getByText('Passwort geändert', { exact: true })).toBeVisible();

    // This device stays signed in; the other one is signed out (its refresh fails too).
    expect((await page.request.get('/api/auth/session')).status()).toBe(200);
    expect((await otherPage.request.get('/api/auth/session')).status()).toBe(401);
    expect((await otherPage.request.post('/api/auth/refresh')).status()).toBe(401);
    await other.close();

    await signOut(page);
    await signIn(page, COLLEAGUE.email, COLLEAGUE.password);
    await expect(page.getByText('Anmeldung fehlgeschlagen')).toBeVisible();
    await page.getByLabel('Passwort', { exact: true }).fill(COLLEAGUE.next);
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('"Passwort vergessen" emails a reset link that sets a new password', async ({ page }) => {
    await page.goto('/auth');
    await hydrated(page);
    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await expect(page).toHaveURL(/\/auth\/forgot$/);
    await hydrated(page);
    await axe(page, 'Passwort vergessen');
    await page.getByLabel('E-Mail').fill(COLLEAGUE.email);
    await page.getByRole('button', { name: 'Link senden' }).click();
    await expect(page.getByText('Wenn es zu dieser Adresse ein Konto gibt, ist ein Link unterwegs.')).toBeVisible();

    const link = await linkFor(COLLEAGUE.email, 'Passwort zurücksetzen – Praxis-Verwaltung');
    await page.goto(link);
    await hydrated(page);
    // A common password is refused at the field; the link stays usable.
    await page.getByLabel('Neues Passwort').fill('qwerty123456');
    await page.getByRole('button', { name: 'Passwort speichern' }).click();
    await expect(page.getByText('Dieses Passwort ist zu verbreitet und leicht zu erraten.')).toBeVisible();
    await page.getByLabel('Neues Passwort').fill('zurueckgesetzt-2030');
    await page.getByRole('button', { name: 'Passwort speichern' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await signIn(page, COLLEAGUE.email, 'zurueckgesetzt-2030');
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('the audit trail lists who added whom, filterable by user and kind; a colleague is removed', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/audit');
    await expect(page.getByRole('heading', { name: 'Protokoll', level: 1 })).toBeVisible();
    await page.getByLabel('Bereich').selectOption({ label: 'Benutzer' });
    await page.getByLabel('Benutzer', { exact: true }).selectOption({ label: ADMIN.email });
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows.filter({ hasText: 'eingeladen' }).first()).toBeVisible();
    await expect(rows.filter({ hasText: 'angelegt' }).first()).toBeVisible();
    await expect(rows.filter({ hasText: 'Passwort' })).toHaveCount(0);
    // Each row names what it changed; accepting the invitation is its own action.
    await expect(rows.filter({ hasText: 'eingeladen' }).first()).toContainText(INVITED.email);
    await page.getByLabel('Benutzer', { exact: true }).selectOption({ label: INVITED.email });
    await expect(rows.filter({ hasText: 'Einladung angenommen' })).toContainText(INVITED.email);
    await axe(page, 'Protokoll');

    await page.goto('/admin/users');
    await expect(page.getByRole('row').filter({ hasText: INVITED.email })).toContainText('aktiv');
    await page.getByRole('button', { name: `${INVITED.email} entfernen` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Entfernen' }).click();
    await expect(page.getByText('Benutzer entfernt')).toBeVisible();
    await expect(page.getByRole('cell', { name: INVITED.email, exact: true })).toHaveCount(0);
  });

  test('the day list shows tomorrow in time order and prints on A4 without navigation', async ({ page }, testInfo) => {
    await signInAsAdmin(page);
    const origin = { origin: new URL(page.url()).origin };
    const tomorrow = addDaysToDate(berlinToday(), 1);
    const type = await (
      await page.request.post('/api/admin/appointment-types', {
        headers: origin,
        data: { name: `Tagesliste ${stamp}`, description: 'Nur für den Test.', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 2 },
      })
    ).json();
    for (let day = 0; day < 7; day++) {
      const res = await page.request.post('/api/admin/time-slots', { headers: origin, data: { appointment_type_id: type.id, day_of_week: day, start_time: '08:00', end_time: '12:00' } });
      expect(res.status()).toBe(201);
    }
    // Tomorrow may be a public holiday (closed online): the practice opens it for this test, as for an emergency
    // service, and closes it again at the end (docs/decisions/039-public-holidays.md).
    const holiday = publicHolidayOn(tomorrow);
    if (holiday) expect((await page.request.put('/api/admin/settings', { headers: origin, data: { holidays: { opened: [tomorrow] } } })).ok()).toBe(true);
    const references: Record<string, string[]> = {};
    for (const time of ['10:20', '08:40', '08:40']) {
      const res = await page.request.post('/api/bookings', {
        data: bookingRequest(type.id, tomorrow, time, { email: `tagesliste-${stamp}@example.org` }),
      });
      expect(res.status()).toBe(201);
      (references[time] ??= []).push(((await res.json()) as { booking: { reference: string } }).booking.reference);
    }
    // A phone booking ("Termin eintragen") at 09:00.
    const phone = await page.request.post('/api/admin/booked-slots', {
      headers: origin,
      data: { appointment_type_id: type.id, appointment_date: tomorrow, appointment_time: '09:00', ...testCaller },
    });
    expect(phone.status()).toBe(201);
    const phoneReference = ((await phone.json()) as { reference: string }).reference;

    await page.getByRole('navigation', { name: 'Admin-Navigation' }).getByRole('link', { name: 'Tagesliste' }).click();
    await expect(page).toHaveURL(/\/admin\/day-list$/);
    const day = page.getByRole('region', { name: new RegExp(formatLongDate(tomorrow, 'de')) });
    await expect(page.getByRole('region', { name: new RegExp(formatLongDate(berlinToday(), 'de')) })).toBeVisible();
    const ours = day.getByRole('row').filter({ hasText: `Tagesliste ${stamp}` });
    await expect(ours).toHaveCount(4);
    await expect(ours.locator('td:first-child')).toHaveText(['08:40', '08:40', '09:00', '10:20']);
    await expect(day.getByRole('columnheader')).toHaveText(['Uhrzeit', 'Patient', 'Terminart', 'Buchungsnummer', 'Quelle', 'Status', 'Ankunft']);
    // The date field shows the first day listed (today, with tomorrow).
    await expect(page.getByLabel('Datum')).toHaveValue(berlinToday());
    // Time, type, reference, source: the two 08:40 bookings in either order.
    const rowTexts = async () => (await ours.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent!.trim())))).sort();
    const expectedRows = [
      // Birth date and phone beside every name, so the same patient three times that day is told apart (docs/decisions/025).
      ...references['08:40']!.map((ref) => ['08:40', 'Mustermann, Erika geb. 12.08.1964 · Tel. 0211 5550123', `Tagesliste ${stamp}`, ref, 'Online', expect.stringMatching(/^gebucht\s*E-Mail (wird gesendet|gesendet|zugestellt)$/), '–']),
      ['09:00', 'Müller, Hans Tel. 0211 7654321', `Tagesliste ${stamp}`, phoneReference, 'Telefon', 'gebucht', '–'],
      ['10:20', 'Mustermann, Erika geb. 12.08.1964 · Tel. 0211 5550123', `Tagesliste ${stamp}`, references['10:20']![0]!, 'Online', expect.stringMatching(/^gebucht\s*E-Mail (wird gesendet|gesendet|zugestellt)$/), '–'],
    ].sort();
    expect(await rowTexts()).toEqual(expectedRows);
    await axe(page, 'Tagesliste');
    const allTimes = await day.locator('tbody td:first-child').allTextContents();
    expect(allTimes).toEqual([...allTimes].sort());

    // A chosen date shows only that date.
    await page.getByLabel('Datum').fill(tomorrow);
    await expect(page.locator('section.day-schedule')).toHaveCount(1);
    await expect(page.getByLabel('Datum')).toHaveValue(tomorrow);
    await expect(page).toHaveURL(new RegExp(`datum=${tomorrow}`));
    await expect(page.getByRole('region', { name: new RegExp(formatLongDate(tomorrow, 'de')) })).toBeVisible();

    // Print media: no navigation, header or controls; the list stays.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('complementary', { name: 'Admin-Navigation' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Abmelden' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Drucken' })).toBeHidden();
    await expect(page.getByLabel('Datum')).toBeHidden();
    await expect(ours.first()).toBeVisible();
    await expect(page.getByText(/^Stand: /)).toBeVisible();
    // Reference and source columns print too.
    for (const header of ['Uhrzeit', 'Patient', 'Terminart', 'Buchungsnummer', 'Quelle', 'Status', 'Ankunft']) await expect(day.getByRole('columnheader', { name: header })).toBeVisible();
    for (const ref of [phoneReference, references['10:20']![0]!]) await expect(day.getByRole('cell', { name: ref, exact: true })).toBeVisible();
    await expect(ours.filter({ hasText: phoneReference }).getByRole('cell', { name: 'Telefon', exact: true })).toBeVisible();
    expect(await rowTexts()).toEqual(expectedRows);
    const dir = testInfo.outputPath();
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, 'day-list-print.png'), fullPage: true });
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    writeFileSync(path.join(dir, 'day-list.pdf'), pdf);
    // Each sheet names the practice, its page number and that it is confidential (helpers/print.ts).
    const { text: sheets } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
    expectFramed(sheets.map((t) => t.replace(/\s+/g, ' ')));
    await testInfo.attach('day-list.pdf', { body: pdf, contentType: 'application/pdf' });
    // A4 from the print stylesheet's @page: 210 × 297 mm = 595.3 × 841.9 pt.
    const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString('latin1'));
    expect(box, 'the PDF has a page box').not.toBeNull();
    expect(Math.round(Number(box![1]))).toBeGreaterThanOrEqual(594);
    expect(Math.round(Number(box![1]))).toBeLessThanOrEqual(596);
    expect(Math.round(Number(box![2]))).toBeGreaterThanOrEqual(841);
    expect(Math.round(Number(box![2]))).toBeLessThanOrEqual(843);
    await page.emulateMedia({ media: 'screen' });

    // Clean up: release the bookings, delete the type, so other specs see the seed only.
    const slots = (await (await page.request.get('/api/admin/booked-slots')).json()) as Array<{ id: string; appointment_type_id: string; status: string }>;
    for (const s of slots.filter((s) => s.appointment_type_id === type.id && s.status === 'booked')) {
      expect((await page.request.delete(`/api/admin/booked-slots/${s.id}`, { headers: origin })).ok()).toBe(true);
    }
    expect((await page.request.delete(`/api/admin/appointment-types/${type.id}`, { headers: origin })).status()).toBe(204);
    if (holiday) expect((await page.request.put('/api/admin/settings', { headers: origin, data: { holidays: { opened: [] } } })).ok()).toBe(true);
  });

  test('the dashboard counts items expiring within 30 days beside low stock', async ({ page }) => {
    await signInAsAdmin(page);
    const stats = await (await page.request.get('/api/admin/stats')).json();
    const card = page.locator('dl > div').filter({ has: page.getByText('Artikel laufen in 30 Tagen ab', { exact: true }) });
    await expect(card.locator('dd')).toHaveText(String(stats.expiringSoon));
  });
});

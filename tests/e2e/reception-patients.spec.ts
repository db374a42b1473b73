/**
 * Reception knows who is coming (docs/decisions/025), in the browser:
 * staff take a phone booking with the caller's name and phone, find the
 * caller by "muller" (desktop and 360 px) and open the booking, print the
 * day list with the names (the PDF's text is checked, marked confidential),
 * and cancel the phone booking, seeing the number to call. Runs on a type
 * this file makes and removes again.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday, openDays } from './helpers/clock';
import { extractText, getDocumentProxy } from 'unpdf';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { formatShortDate } from '../../src/lib/dates';
import { fillCaller, hydrated, pickSlot, signInAsAdmin } from './helpers/admin';
import { expectFitsScreen, PHONE } from './helpers/phone';
import { expectFramed, printedPages } from './helpers/print';

const stamp = Date.now();
const TYPE = `Empfang ${stamp}`;
// A last name only this run uses, with an umlaut the search must see through.
const LAST = `Müller-Zwölfhaus`;
const FIRST = `Jörg`;
const PHONE_NUMBER = '0211 4445566';
// Two days ahead, or the next ordinary day after (a public holiday is closed online).
const date = openDays(addDaysToDate(berlinToday(), 2));

let typeId = '';
const origin = (page: Page) => ({ origin: new URL(page.url()).origin });

async function search(page: Page, query: string) {
  await page.getByRole('searchbox', { name: 'Patient suchen' }).fill(query);
  await page.getByRole('button', { name: 'Suchen' }).click();
  return page.getByRole('button', { name: `Termin von ${LAST}, ${FIRST} am ${formatShortDate(date)}, 09:00 Uhr öffnen` });
}

test.describe.serial('reception knows who is coming', () => {
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    const type = await page.request.post('/api/admin/appointment-types', {
      headers: origin(page),
      data: { name: TYPE, description: 'Nur für den Test.', max_advance_days: 30, slot_duration_minutes: 20, max_slots_per_time: 2 },
    });
    expect(type.status()).toBe(201);
    typeId = ((await type.json()) as { id: string }).id;
    const windows = await page.request.post('/api/admin/time-slots', {
      headers: origin(page),
      data: { appointment_type_id: typeId, days_of_week: [1, 2, 3, 4, 5, 6, 7], start_time: '08:00', end_time: '12:00' },
    });
    expect(windows.status()).toBe(201);
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    const slots = (await (await page.request.get('/api/admin/booked-slots')).json()) as Array<{ id: string; appointment_type_id: string; status: string }>;
    for (const s of slots.filter((s) => s.appointment_type_id === typeId && s.status === 'booked')) {
      await page.request.post(`/api/admin/booked-slots/${s.id}/cancel`, { headers: origin(page), data: {} });
    }
    await page.close();
  });

  test('a phone booking with name and phone; "muller" finds the caller on the desktop and opens the booking', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/booked-slots');
    await hydrated(page);
    await page.getByRole('button', { name: 'Termin eintragen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Termin eintragen' });
    await expect(dialog).toContainText('gelöscht am Ende des Termintags');
    await dialog.getByLabel('Terminart').selectOption({ label: TYPE });
    await pickSlot(dialog, date, '09:00');
    // Name and phone are required, said in German at the field.
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Bitte geben Sie den Vornamen ein (mindestens 2 Zeichen).')).toBeVisible();
    await fillCaller(dialog, { first_name: FIRST, last_name: LAST, phone: PHONE_NUMBER });
    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/booked-slots') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    expect((await created).status()).toBe(201);
    await expect(page.getByText(`Keine E-Mail-Adresse: Der Patient erhält keine Bestätigung. Rückfragen unter ${PHONE_NUMBER}.`)).toBeVisible();

    const hit = await search(page, 'muller zwolf');
    await expect(hit).toBeVisible();
    // The query never goes into the page's address.
    expect(page.url()).not.toContain('muller');
    await hit.click();
    const row = page.locator('tr:not([data-details])').filter({ hasText: `${LAST}, ${FIRST}` });
    await expect(row).toHaveCount(1);
    // The opened booking's contact details, on a row of their own under it.
    await expect(row.getByRole('button', { name: `Kontaktdaten von ${LAST}, ${FIRST}` })).toHaveAttribute('aria-expanded', 'true');
    const details = page.locator('tr[data-details]').filter({ hasText: `Kontaktdaten von ${LAST}, ${FIRST}` });
    await expect(details.getByRole('link', { name: PHONE_NUMBER })).toBeVisible();
    await expect(details).toContainText('keine E-Mail-Adresse');
  });

  test('at 360 px the search fits the screen and finds the caller', async ({ browser }) => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signInAsAdmin(page);
    await page.goto('/admin/booked-slots');
    await hydrated(page);
    const hit = await search(page, 'muller');
    await expect(hit).toBeVisible();
    await expectFitsScreen(page, 'Patient suchen at 360 px');
    await hit.click();
    await expect(page.locator('tr[data-details]').filter({ hasText: `${LAST}, ${FIRST}` }).getByRole('link', { name: PHONE_NUMBER })).toBeVisible();
    await context.close();
  });

  test('the printed day list carries the names and says it is confidential', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto(`/admin/day-list?datum=${date}`);
    await hydrated(page);
    await expect(page.getByRole('row').filter({ hasText: TYPE })).toContainText(`${LAST}, ${FIRST}`);
    const { pages } = await printedPages(page);
    // The narrow column may wrap the name after its hyphen; the words stay (helpers/print.ts folds that).
    const text = pages.join(' ');
    expect(text).toContain(`${LAST}, ${FIRST}`);
    expect(text).toContain(`Tel. ${PHONE_NUMBER}`);
    expect(text).toContain(TYPE);
    expectFramed(pages);
  });

  test('cancelling the phone booking shows the number to call, in the dialog and after', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto(`/admin/booked-slots?datum=${date}`);
    await hydrated(page);
    const row = page.locator('tr').filter({ hasText: `${LAST}, ${FIRST}` });
    await row.getByRole('button', { name: /absagen$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Termin absagen' });
    await expect(dialog).toContainText(`Bitte telefonisch informieren: ${PHONE_NUMBER}`);
    await dialog.getByRole('button', { name: 'Termin absagen' }).click();
    await expect(page.getByText(`Bitte telefonisch informieren: ${PHONE_NUMBER}`)).toBeVisible();
  });
});

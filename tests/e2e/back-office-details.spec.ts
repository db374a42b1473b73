/**
 * The back office's details at 1280 px (sidebar open) and on a 360 px
 * phone: the booked list fits without cutting "Verschieben" and shows a
 * long email address on one line; the header names the page (not "Admin
 * Dashboard") and the tab says "… – Praxisverwaltung"; "Zur Terminbuchung"
 * leads to /termin. Runs on a type and bookings of its own, removed again.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday, openDays } from './helpers/clock';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { hydrated, signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';
import { expectFitsScreen, PHONE } from './helpers/phone';

const stamp = Date.now();
const TYPE = `Details ${stamp}`;
// Within the type's 30 days, so staff and the list agree on any day the test runs.
// (Not a public holiday: those ask staff first.)
const DAY = openDays(addDaysToDate(berlinToday(), 5));
const EMAIL = `anna-katharina.mueller-luedenscheidt.${stamp}@beispiel-hausarztpraxis.example.org`;
const DESKTOP = { width: 1280, height: 800 };

let typeId = '';
const ids: string[] = [];
const origin = (page: Page) => ({ origin: new URL(page.url()).origin });

test.describe.serial('back office details', () => {
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    const type = await page.request.post('/api/admin/appointment-types', {
      headers: origin(page),
      data: { name: TYPE, description: 'Nur für den Test.', max_advance_days: 30, slot_duration_minutes: 20, max_slots_per_time: 2 },
    });
    typeId = ((await type.json()) as { id: string }).id;
    await page.request.post('/api/admin/time-slots', {
      headers: origin(page),
      data: { appointment_type_id: typeId, days_of_week: [1, 2, 3, 4, 5, 6, 7], start_time: '08:00', end_time: '12:00' },
    });
    for (const time of ['09:00', '09:20']) {
      const res = await page.request.post('/api/admin/booked-slots', {
        headers: origin(page),
        data: {
          appointment_type_id: typeId,
          appointment_date: DAY,
          appointment_time: time,
          first_name: 'Anna-Katharina',
          last_name: `Müller-Lüdenscheidt ${time}`,
          phone: '+49 211 5550123',
          email: EMAIL,
          birth_date: '14.02.1950',
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    for (const id of ids) await page.request.delete(`/api/admin/booked-slots/${id}`, { headers: origin(page) });
    await page.request.delete(`/api/admin/appointment-types/${typeId}`, { headers: origin(page) });
    await page.close();
  });

  test('at 1280 px the booked list fits: "Verschieben" whole, the email address on one line; the header names the page', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAsAdmin(page);
    await page.goto(`/admin/booked-slots?datum=${DAY}`);
    await hydrated(page);
    const rows = page.locator('tr:not([data-details])').filter({ hasText: TYPE });
    await expect(rows).toHaveCount(2);
    await expect(page.getByRole('complementary', { name: 'Admin-Navigation' })).toHaveAttribute('data-state', 'expanded');

    // The header and the tab name the page.
    await expect(page.getByRole('banner')).toContainText('Gebuchte Termine');
    await expect(page.getByRole('banner')).not.toContainText('Admin Dashboard');
    await expect(page).toHaveTitle('Gebuchte Termine – Praxisverwaltung');
    await expect(page.getByRole('link', { name: 'Zur Terminbuchung' })).toHaveAttribute('href', '/termin');

    for (const row of await rows.all()) await row.getByRole('button', { name: /^Kontaktdaten von/ }).click();
    const table = page.locator('.list-table');
    // Nothing scrolls inside the table's box, and every "Verschieben" lies wholly inside it.
    const box = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
    expect(box.scroll, 'the table needs no sideways scrolling').toBeLessThanOrEqual(box.client);
    for (const button of await page.getByRole('button', { name: /verschieben$/ }).all()) {
      const b = (await button.boundingBox())!;
      expect(b.x + b.width, 'Verschieben within the table').toBeLessThanOrEqual(box.right);
      await expect(button).toHaveText('Verschieben');
    }
    // The address on one line: its box is one line high.
    const address = page.locator('tr[data-details] dd').filter({ hasText: EMAIL }).first();
    await expect(address).toBeVisible();
    const lines = await address.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines, 'the email address on one line').toBe(1);
    await expectNoAxeViolations(page, 'Gebuchte Termine mit Kontaktdaten, 1280 px');

    // Other pages' headers name them too.
    for (const [path, name] of [['/admin/woche', 'Wochenansicht'], ['/admin/day-list', 'Tagesliste'], ['/admin', 'Dashboard']] as const) {
      await page.goto(path);
      await expect(page.getByRole('banner')).toContainText(name);
      await expect(page).toHaveTitle(`${name} – Praxisverwaltung`);
    }
  });

  test('at 360 px the booked list with open contact details fits the screen', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInAsAdmin(page);
    await page.goto(`/admin/booked-slots?datum=${DAY}`);
    await hydrated(page);
    const rows = page.locator('tr:not([data-details])').filter({ hasText: TYPE });
    await expect(rows).toHaveCount(2);
    await expect(page.getByRole('banner')).toContainText('Gebuchte Termine');
    await rows.first().getByRole('button', { name: /^Kontaktdaten von/ }).click();
    await expect(page.locator('tr[data-details]').first()).toContainText(EMAIL);
    await expectFitsScreen(page, 'Gebuchte Termine mit Kontaktdaten, 360 px');
    await expectNoAxeViolations(page, 'Gebuchte Termine mit Kontaktdaten, 360 px');
  });
});

/**
 * Reception's daily work: the week view with its blocks and
 * printout, the day list's blocked times, the dashboard's remaining
 * appointments and filtered links, a type paused online. Everything runs on
 * a type this file makes next week and removes again, so the other specs
 * see the seed data.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday } from './helpers/clock';
import { addDaysToDate, weekdayOf } from '../../src/lib/berlin-time';
import { formatLongDate, formatShortDate } from '../../src/lib/dates';
import { bookingRequest, testCaller } from '../helpers/patient';
import { openHolidaysAmong, pickSlot, signInAsAdmin, fillCaller } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';
import { expectFitsScreen, PHONE } from './helpers/phone';
import { expectFramed } from './helpers/print';

const stamp = Date.now();
const TYPE = `Woche ${stamp}`;
const mondayOf = (date: string) => addDaysToDate(date, -((weekdayOf(date) + 6) % 7));

const today = berlinToday();
const nextMonday = addDaysToDate(mondayOf(today), 7);
const wednesday = addDaysToDate(nextMonday, 2);
const friday = addDaysToDate(nextMonday, 4);
const sunday = addDaysToDate(nextMonday, 6);

let typeId = '';
const references: Record<string, string> = {};
let closeHolidays: (signedIn: Page) => Promise<void> = async () => {};

async function api(request: APIRequestContext, page: Page, method: 'post' | 'put' | 'delete', path: string, data?: unknown) {
  const res = await request[method](path, { headers: { origin: new URL(page.url()).origin }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? null : res.json();
}

const dayRegion = (page: Page, date: string) => page.getByRole('region', { name: new RegExp(formatLongDate(date, 'de')) });
const rowsOf = (page: Page, date: string) => dayRegion(page, date).getByRole('row').filter({ hasText: TYPE });

test.describe.serial('reception', () => {
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    const request = page.request;
    // Next week is fixed by the calendar: a public holiday in it is opened for this spec (then closed again).
    closeHolidays = await openHolidaysAmong(page, Array.from({ length: 7 }, (_, i) => addDaysToDate(nextMonday, i)));
    typeId = (
      await api(request, page, 'post', '/api/admin/appointment-types', {
        name: TYPE,
        description: 'Nur für den Test.',
        max_advance_days: 30,
        slot_duration_minutes: 20,
        max_slots_per_time: 2,
      })
    ).id;
    await api(request, page, 'post', '/api/admin/time-slots', { appointment_type_id: typeId, days_of_week: [1, 2, 3, 4, 5, 6, 7], start_time: '08:00', end_time: '12:00' });
    // Wednesday: 10:20 online and 08:40 by phone; Friday 09:00 by phone.
    const online = await request.post('/api/bookings', { data: bookingRequest(typeId, wednesday, '10:20', { email: `woche-${stamp}@example.org` }) });
    expect(online.status()).toBe(201);
    references['wed 10:20'] = ((await online.json()) as { booking: { reference: string } }).booking.reference;
    for (const [date, time, key] of [[wednesday, '08:40', 'wed 08:40'], [friday, '09:00', 'fri 09:00']] as const) {
      references[key] = (await api(request, page, 'post', '/api/admin/booked-slots', { appointment_type_id: typeId, appointment_date: date, appointment_time: time, ...testCaller })).reference;
    }
    // Thursday: two bookings the practice cancels, one online (the patient gets an email), one by phone (staff must call).
    const thursday = addDaysToDate(nextMonday, 3);
    const toCancel = await request.post('/api/bookings', { data: bookingRequest(typeId, thursday, '11:00', { email: `woche-abgesagt-${stamp}@example.org` }) });
    expect(toCancel.status()).toBe(201);
    const onlineCancelled = ((await toCancel.json()) as { booking: { id: string; reference: string } }).booking;
    const phoneCancelled = await api(request, page, 'post', '/api/admin/booked-slots', { appointment_type_id: typeId, appointment_date: thursday, appointment_time: '08:20', ...testCaller });
    for (const booking of [onlineCancelled, phoneCancelled]) await api(request, page, 'post', `/api/admin/booked-slots/${booking.id}/cancel`, {});
    references['thu online'] = onlineCancelled.reference;
    references['thu phone'] = phoneCancelled.reference;
    // A partial block over the 10:20 booking (kept), and the whole Sunday.
    await api(request, page, 'post', '/api/admin/blocked-dates', { date: wednesday, start_time: '10:00', end_time: '11:00', appointment_type_id: typeId, reason: 'Teamsitzung', bookings: 'keep' });
    await api(request, page, 'post', '/api/admin/blocked-dates', { date: sunday, appointment_type_id: typeId, bookings: 'keep' });
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    const origin = { origin: new URL(page.url()).origin };
    const slots = (await (await page.request.get('/api/admin/booked-slots')).json()) as Array<{ id: string; appointment_type_id: string }>;
    for (const s of slots.filter((s) => s.appointment_type_id === typeId)) await page.request.delete(`/api/admin/booked-slots/${s.id}`, { headers: origin });
    const blocks = (await (await page.request.get('/api/admin/blocked-dates')).json()) as Array<{ id: string; appointment_type_id: string | null }>;
    for (const b of blocks.filter((b) => b.appointment_type_id === typeId)) await page.request.delete(`/api/admin/blocked-dates/${b.id}`, { headers: origin });
    await page.request.delete(`/api/admin/appointment-types/${typeId}`, { headers: origin });
    await closeHolidays(page);
    await page.close();
  });

  test('the week view: Monday to Sunday in time order with blocks, other weeks, a chosen date, and an A4 printout', async ({ page }, testInfo) => {
    await signInAsAdmin(page);
    await page.getByRole('navigation', { name: 'Admin-Navigation' }).getByRole('link', { name: 'Wochenansicht' }).click();
    await expect(page).toHaveURL(/\/admin\/woche$/);
    await expect(page.getByRole('heading', { name: 'Wochenansicht', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: new RegExp(`^KW \\d+: ${formatShortDate(mondayOf(today))} – `) })).toBeVisible();

    await page.getByRole('button', { name: 'Nächste Woche' }).click();
    await expect(page.getByRole('heading', { name: new RegExp(`${formatShortDate(nextMonday)} – ${formatShortDate(sunday)}$`) })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`datum=${nextMonday}`));
    // Seven days, Monday first.
    const days = page.locator('section.day-schedule');
    await expect(days).toHaveCount(7);
    await expect(days.first().getByRole('heading')).toContainText(formatLongDate(nextMonday, 'de'));
    await expect(days.last().getByRole('heading')).toContainText(formatLongDate(sunday, 'de'));

    // Wednesday: time order, each row with time, type, reference, source and status; the block, and the booking inside it marked.
    await expect(rowsOf(page, wednesday).locator('td:first-child')).toHaveText(['08:40', '10:20']);
    // Each name with the birth date (where given) and the phone beside it.
    await expect(rowsOf(page, wednesday).first().getByRole('cell')).toHaveText(['08:40', 'Müller, Hans Tel. 0211 7654321', TYPE, references['wed 08:40']!, 'Telefon', 'gebucht']);
    await expect(rowsOf(page, wednesday).last().getByRole('cell')).toHaveText([
      '10:20',
      'Mustermann, Erika geb. 12.08.1964 · Tel. 0211 5550123',
      TYPE,
      references['wed 10:20']!,
      'Online',
      // Every booking says how its patient was told (docs/decisions/043).
      /^gebucht\s*E-Mail (wird gesendet|gesendet|zugestellt)\s*in Sperrzeit$/,
    ]);
    await expect(dayRegion(page, wednesday).getByRole('list', { name: /^Sperrzeiten/ })).toContainText(`Gesperrt: 10:00–11:00 Uhr, ${TYPE} (Teamsitzung)`);
    await expect(dayRegion(page, sunday).getByRole('listitem').filter({ hasText: TYPE })).toHaveText(`Gesperrt: ganzer Tag, ${TYPE}`);
    await expect(rowsOf(page, friday).getByRole('cell')).toHaveText(['09:00', 'Müller, Hans Tel. 0211 7654321', TYPE, references['fri 09:00']!, 'Telefon', 'gebucht']);
    // Practice cancellations stay, struck through, saying whether the patient was told; the day counts none of them.
    const thursday = addDaysToDate(nextMonday, 3);
    await expect(dayRegion(page, thursday).getByRole('heading')).toContainText('0 Termine');
    const cancelledRows = rowsOf(page, thursday);
    await expect(cancelledRows.locator('td:last-child')).toHaveText([
      'von der Praxis abgesagtkeine E-Mail – bitte anrufen: 0211 7654321 Patient erreicht',
      /^von der Praxis abgesagtE-Mail (gesendet|zugestellt)$/,
    ]);
    await expect(cancelledRows.first()).toContainText(references['thu phone']!);
    for (const row of await cancelledRows.all()) {
      await expect(row.locator('td').first()).toHaveCSS('text-decoration-line', 'line-through');
      await expect(row.locator('td').last()).not.toHaveCSS('text-decoration-line', 'line-through');
    }
    await expectNoAxeViolations(page, 'Wochenansicht');

    // A reload keeps the week; a date jumps to its week; the buttons go back.
    await page.reload();
    await expect(rowsOf(page, friday)).toHaveCount(1);
    await page.getByLabel('Woche mit Datum').fill(addDaysToDate(nextMonday, 10));
    await expect(page.getByRole('heading', { name: new RegExp(`^KW \\d+: ${formatShortDate(addDaysToDate(nextMonday, 7))} – `) })).toBeVisible();
    await expect(page.getByLabel('Woche mit Datum')).toHaveValue(addDaysToDate(nextMonday, 7));
    await page.getByRole('button', { name: 'Vorherige Woche' }).click();
    await expect(rowsOf(page, friday)).toHaveCount(1);
    await page.getByRole('button', { name: 'Diese Woche' }).click();
    await expect(page).toHaveURL(/\/admin\/woche$/);
    await page.getByRole('button', { name: 'Nächste Woche' }).click();
    await expect(rowsOf(page, wednesday)).toHaveCount(2);

    // The printout: the practice's name, the week, no navigation or controls, A4 in landscape.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('complementary', { name: 'Admin-Navigation' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Nächste Woche' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Drucken' })).toBeHidden();
    await expect(rowsOf(page, wednesday).last()).toContainText('in Sperrzeit');
    await expect(dayRegion(page, sunday).getByText(`Gesperrt: ganzer Tag, ${TYPE}`)).toBeVisible();
    await expect(page.getByText(/^Stand: /)).toBeVisible();
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    await testInfo.attach('woche.pdf', { body: pdf, contentType: 'application/pdf' });
    // Every sheet names the practice (helpers/print.ts).
    const { text: sheets } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
    expectFramed(sheets.map((t) => t.replace(/\s+/g, ' ')));
    const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString('latin1'));
    expect(box, 'the PDF has a page box').not.toBeNull();
    expect(Math.round(Number(box![1]))).toBe(842);
    expect(Math.round(Number(box![2]))).toBe(595);
    await page.emulateMedia({ media: 'screen' });
  });

  test('with appointments and blocks, the week view and the day list fit a 360 px phone', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInAsAdmin(page);
    for (const path of [`/admin/woche?datum=${nextMonday}`, `/admin/day-list?datum=${wednesday}`]) {
      await page.goto(path);
      await expect(rowsOf(page, wednesday)).toHaveCount(2);
      await expectFitsScreen(page, path);
    }
    // The booked-slots list as cards: each booking's actions within the screen.
    await page.goto(`/admin/booked-slots?datum=${wednesday}`);
    await expect(page.getByRole('row').filter({ hasText: TYPE })).toHaveCount(2);
    await expectFitsScreen(page, 'booked slots');
  });

  test('the day list of a chosen date shows that date in its field and marks the blocked time, on screen and in print', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto(`/admin/day-list?datum=${wednesday}`);
    await expect(page.getByLabel('Datum')).toHaveValue(wednesday);
    await expect(page.locator('section.day-schedule')).toHaveCount(1);
    await expect(rowsOf(page, wednesday).last()).toContainText('in Sperrzeit');
    await expect(dayRegion(page, wednesday).getByText(`Gesperrt: 10:00–11:00 Uhr, ${TYPE} (Teamsitzung)`).filter({ visible: true })).toBeVisible();
    // On paper the blocks stand in the day table's first row (print-only), on screen in the list above it: one of them shows.
    await page.emulateMedia({ media: 'print' });
    await expect(dayRegion(page, wednesday).getByText(`Gesperrt: 10:00–11:00 Uhr, ${TYPE} (Teamsitzung)`).filter({ visible: true })).toBeVisible();
    await expect(rowsOf(page, wednesday).last()).toContainText('in Sperrzeit');
    await page.emulateMedia({ media: 'screen' });
  });

  test("the dashboard lists today's remaining appointments, and each figure opens the page filtered to it", async ({ page }) => {
    await signInAsAdmin(page);
    // A time still ahead today, if the day has one left (late in the evening it has none).
    const { days } = (await (await page.request.get(`/api/availability?type=${typeId}&from=${today}&to=${today}`)).json()) as { days: Array<{ times: string[] }> };
    const time = days[0]?.times[0];
    const remaining = page.getByRole('region', { name: 'Heute noch' });
    if (time) {
      const booked = await api(page.request, page, 'post', '/api/admin/booked-slots', { appointment_type_id: typeId, appointment_date: today, appointment_time: time, ...testCaller });
      await page.reload();
      await expect(remaining.getByRole('listitem').filter({ hasText: booked.reference })).toContainText(`${time}${TYPE}`);
    } else {
      await expect(remaining.getByRole('listitem').filter({ hasText: TYPE })).toHaveCount(0);
    }
    await expect(remaining.getByRole('link', { name: 'Zur Tagesliste' })).toHaveAttribute('href', '/admin/day-list');

    const card = (label: string) => page.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) });
    await card('Artikel mit niedrigem Bestand').click();
    await expect(page).toHaveURL(/\/admin\/inventory\?filter=low-stock$/);
    await expect(page.getByRole('button', { name: /^Niedriger Bestand/ })).toHaveAttribute('aria-pressed', 'true');
    await page.goBack();
    await card('Termine heute').getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/admin/day-list\\?datum=${today}$`));
    await expect(page.locator('section.day-schedule')).toHaveCount(1);
    await page.goBack();
    await card('Artikel laufen in 30 Tagen ab').getByRole('link').click();
    await expect(page.getByRole('button', { name: /^Läuft bald ab/ })).toHaveAttribute('aria-pressed', 'true');
  });

  test('the Protokoll names what was changed: the type, its windows, the bookings by reference', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/audit');
    await page.getByLabel('Bereich').selectOption({ label: 'Terminart' });
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows.filter({ hasText: TYPE }).filter({ hasText: 'angelegt' })).toHaveCount(1);
    await page.getByLabel('Bereich').selectOption({ label: 'Zeitfenster' });
    await expect(rows.filter({ hasText: `${TYPE}, So 08:00–12:00 Uhr` })).toHaveCount(1);
    await page.getByLabel('Bereich').selectOption({ label: 'Gebuchter Termin' });
    await expect(rows.filter({ hasText: references['wed 08:40']! })).toContainText(`${TYPE}, ${formatShortDate(wednesday)} 08:40 Uhr`);
    await expect(page.getByRole('main')).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  test('a type paused online is missing from /termin but staff still book it', async ({ page, context }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/appointment-types');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: TYPE }) });
    await card.getByRole('button', { name: `${TYPE} bearbeiten` }).click();
    const dialog = page.getByRole('dialog', { name: 'Terminart bearbeiten' });
    await dialog.getByRole('checkbox', { name: 'Online buchbar' }).uncheck();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(card).toContainText('Online pausiert – nur telefonisch');

    const wizard = await context.newPage();
    await wizard.goto('/termin');
    await expect(wizard.getByRole('button', { name: 'Auswählen: Check-up' })).toBeVisible();
    await expect(wizard.getByRole('button', { name: `Auswählen: ${TYPE}` })).toHaveCount(0);

    await page.goto('/admin/booked-slots');
    await page.getByRole('button', { name: 'Termin eintragen' }).click();
    const booking = page.getByRole('dialog', { name: 'Termin eintragen' });
    await booking.getByLabel(/Terminart/).selectOption({ label: TYPE });
    // Picked from the staff calendar (docs/decisions/021): a paused type is still offered to staff.
    await pickSlot(booking, friday, '10:00');
    await fillCaller(booking);
    await booking.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText(/^Termin eingetragen \(Buchungsnummer [2-9A-Z]{6}\)$/)).toBeVisible();
  });
});

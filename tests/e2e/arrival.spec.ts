/**
 * Arrival and the practice's notification (docs/decisions/026): reception
 * marks a booking of today "erschienen" in the day list and undoes it, and
 * the link in the practice's email opens the booking in the back office,
 * through sign-in when signed out. Everything runs on a type this file
 * makes and removes again.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday, openDays } from './helpers/clock';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { formatLongDate } from '../../src/lib/dates';
import { bookingRequest, testCaller } from '../helpers/patient';
import { ADMIN, signIn, signInAsAdmin } from './helpers/admin';
import { practiceNotificationOf, referenceIn, mailTo } from './helpers/wizard';

const stamp = Date.now();
const TYPE = `Ankunft ${stamp}`;

let typeId = '';

async function post(page: Page, path: string, data: unknown) {
  const res = await page.request.post(path, { headers: { origin: new URL(page.url()).origin }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

test.describe.serial('arrival and the practice notification', () => {
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    // Five-minute appointments all day, every day: staff can book today whenever the test runs (but in the day's last ten minutes).
    typeId = (await post(page, '/api/admin/appointment-types', { name: TYPE, description: 'Nur für den Test.', max_advance_days: 30, slot_duration_minutes: 5, max_slots_per_time: 1 })).id;
    await post(page, '/api/admin/time-slots', { appointment_type_id: typeId, days_of_week: [1, 2, 3, 4, 5, 6, 7], start_time: '00:00', end_time: '23:59' });
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    const origin = { origin: new URL(page.url()).origin };
    const slots = (await (await page.request.get('/api/admin/booked-slots')).json()) as Array<{ id: string; appointment_type_id: string }>;
    for (const s of slots.filter((s) => s.appointment_type_id === typeId)) await page.request.delete(`/api/admin/booked-slots/${s.id}`, { headers: origin });
    await page.request.delete(`/api/admin/appointment-types/${typeId}`, { headers: origin });
    await page.close();
  });

  test('reception marks a booking of today "erschienen" in the day list and undoes it', async ({ page }) => {
    await signInAsAdmin(page);
    const today = berlinToday();
    const free = (await (await page.request.get(`/api/admin/availability?type=${typeId}&from=${today}&to=${today}`)).json()) as { days: Array<{ times: string[] }> };
    // The second free time: at least five minutes ahead, so it has not begun while the test runs.
    const time = free.days[0]!.times[1] ?? free.days[0]!.times[0]!;
    // Today may be a public holiday: staff book it after the warning (docs/decisions/039-public-holidays.md).
    const booking = await post(page, '/api/admin/booked-slots', { appointment_type_id: typeId, appointment_date: today, appointment_time: time, ...testCaller, confirm_holiday: true });

    await page.goto(`/admin/day-list?datum=${today}`);
    const day = page.getByRole('region', { name: new RegExp(formatLongDate(today, 'de')) });
    const row = day.getByRole('row').filter({ hasText: booking.reference });
    const what = `${time} Uhr, ${TYPE}, ${booking.reference}`;
    await row.getByRole('button', { name: `${what}: erschienen` }).click();
    await expect(row.locator('[data-attendance="arrived"]')).toHaveText('erschienen');
    await expect(row.getByRole('button', { name: `${what}: nicht erschienen` })).toHaveCount(0);

    // Stored: a reload shows it, and the audit names it.
    await page.reload();
    await expect(row.locator('[data-attendance="arrived"]')).toHaveText('erschienen');
    await row.getByRole('button', { name: `${what}: Ankunft rückgängig machen` }).click();
    await expect(row.getByRole('button', { name: `${what}: erschienen` })).toBeVisible();
    await page.reload();
    await expect(row.getByRole('button', { name: `${what}: erschienen` })).toBeVisible();
    // The appointment is still ahead: nobody has missed it yet.
    await expect(row.getByRole('button', { name: `${what}: nicht erschienen` })).toHaveCount(0);
    await expect(row.locator('[data-attendance="open"]')).toHaveCount(1);
    const audit = (await (await page.request.get('/api/admin/audit?kind=booked-slot')).json()) as Array<{ action: string; label: string }>;
    expect(audit.filter((a) => a.action === 'attendance' && a.label.startsWith(booking.reference)).map((a) => a.label.split(': ').at(-1))).toEqual(
      expect.arrayContaining(['erschienen', 'Ankunft zurückgenommen']),
    );
  });

  test("the practice email's link opens the booking in the back office, through sign-in", async ({ page, browser }) => {
    await signInAsAdmin(page);
    const date = openDays(addDaysToDate(berlinToday(), 2));
    const email = `ankunft-${stamp}@example.org`;
    const res = await page.request.post('/api/bookings', { data: bookingRequest(typeId, date, '10:00', { email }) });
    expect(res.status()).toBe(201);
    const confirmation = await mailTo(email);
    const reference = referenceIn(confirmation.text);
    const notification = (await practiceNotificationOf(reference))!;
    for (const text of ['Erika', 'Mustermann', email, '5550123']) expect(notification.raw).not.toContain(text);
    const link = new URL(/(https?:\/\/\S+\/admin\/booked-slots\?buchung=[0-9a-f-]{36})/.exec(notification.text)![1]!);

    // A browser without a session: sign in first, then the booking.
    const fresh = await browser.newPage();
    await fresh.goto(link.pathname + link.search);
    await expect(fresh).toHaveURL(/\/auth\?next=/);
    await signIn(fresh, ADMIN.email, ADMIN.password);
    await expect(fresh).toHaveURL(link.pathname + link.search);
    await expect(fresh.getByText('Die Buchung aus der Benachrichtigung der Praxis.')).toBeVisible();
    const rows = fresh.getByRole('row').filter({ hasText: reference });
    await expect(rows).toHaveCount(1);
    // That booking alone, its contact details open on a row of their own under it.
    await expect(fresh.locator('tbody tr:not([data-details])')).toHaveCount(1);
    await fresh.getByRole('button', { name: 'Alle Termine anzeigen' }).click();
    await expect.poll(async () => fresh.locator('tbody tr:not([data-details])').count()).toBeGreaterThan(1);
    await fresh.close();
  });
});

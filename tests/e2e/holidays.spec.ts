/**
 * Public holidays in the wizard's calendar (docs/decisions/039-public-holidays.md):
 * the next NRW holiday after the suite's today (so this runs on any day,
 * E2E_NOW included) is shown as "Feiertag" / "Public holiday" with its
 * name, cannot be chosen, and no time is offered there. The type is this
 * spec's own, open every day of the week and bookable a year ahead, so the
 * holiday falls on a day with windows whatever its weekday.
 */
import { expect, test } from './helpers/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { signInAsAdmin } from './helpers/admin';
import { showMonthOf } from './helpers/calendar';
import { berlinDate } from './helpers/clock';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { formatLongDate } from '../../src/lib/dates';
import { publicHolidayOn, type PublicHoliday } from '../../src/lib/holidays';

const TYPE = `Feiertagsprobe ${Date.now()}`;
let typeId = '';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first public holiday after today (a year holds eleven). */
function nextHoliday(): PublicHoliday {
  for (let date = berlinDate(1); ; date = addDaysToDate(date, 1)) {
    const holiday = publicHolidayOn(date);
    if (holiday) return holiday;
  }
}

async function adminCall(request: APIRequestContext, page: Page, method: 'post' | 'delete', path: string, data?: unknown) {
  const res = await request[method](path, { headers: { origin: new URL(page.url()).origin }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? null : res.json();
}

test.describe('public holidays in the wizard', () => {
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    // Every public holiday closed, as before the practice saves anything (a spec that opened one for itself and failed leaves none open).
    const reset = await page.request.put('/api/admin/settings', { headers: { origin: new URL(page.url()).origin }, data: { holidays: { opened: [] } } });
    expect(reset.status()).toBe(200);
    typeId = (
      await adminCall(page.request, page, 'post', '/api/admin/appointment-types', {
        name: TYPE,
        description: 'Nur für den Test.',
        max_advance_days: 365,
        slot_duration_minutes: 30,
        max_slots_per_time: 1,
      })
    ).id;
    await adminCall(page.request, page, 'post', '/api/admin/time-slots', { appointment_type_id: typeId, days_of_week: [1, 2, 3, 4, 5, 6, 7], start_time: '08:00', end_time: '12:00' });
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    await adminCall(page.request, page, 'delete', `/api/admin/appointment-types/${typeId}`);
    await page.close();
  });

  for (const lang of ['de', 'en'] as const) {
    test(`${lang}: the next public holiday shows as "${lang === 'de' ? 'Feiertag' : 'Public holiday'}", cannot be chosen, and offers no time`, async ({ page, request }) => {
      const holiday = nextHoliday();
      const name = lang === 'de' ? `Feiertag: ${holiday.name}` : `Public holiday: ${holiday.name_en}`;
      // The server offers no time that day and names the holiday in the same answer.
      const answer = (await (await request.get(`/api/availability?type=${typeId}&from=${holiday.date}&to=${addDaysToDate(holiday.date, 1)}`)).json()) as {
        days: Array<{ date: string }>;
        holidays: Array<{ date: string; name: string }>;
      };
      expect(answer.days.map((d) => d.date)).not.toContain(holiday.date);
      expect(answer.holidays).toContainEqual(expect.objectContaining({ date: holiday.date, name: holiday.name }));

      await page.goto(lang === 'de' ? '/termin' : '/en/termin');
      await page.getByRole('button', { name: lang === 'de' ? `Auswählen: ${TYPE}` : `Select: ${TYPE}`, exact: true }).click();
      await page.waitForURL(/[?&](datum|date)=\d{4}-\d{2}-\d{2}/);
      await showMonthOf(page, holiday.date, lang);
      const day = page.getByRole('button', { name: new RegExp(`^${escape(formatLongDate(holiday.date, lang))}, ${escape(name)}$`) });
      await expect(day).toBeDisabled();
      await expect(page.getByRole('list', { name: lang === 'de' ? 'Geschlossene Tage in diesem Monat' : 'Closed days this month' })).toContainText(name);
      // The day before has times (every day has windows) and can be chosen; the holiday cannot.
      const before = addDaysToDate(holiday.date, -1);
      if (before.slice(0, 7) === holiday.date.slice(0, 7) && !publicHolidayOn(before) && before > berlinDate(0)) {
        await page.getByRole('button', { name: new RegExp(`^${escape(formatLongDate(before, lang))}`) }).click();
        await page.waitForURL((u) => (u.searchParams.get('datum') ?? u.searchParams.get('date')) === before);
        await expect(page.getByRole('group', { name: lang === 'de' ? 'Uhrzeit wählen' : 'Select time' }).getByRole('button').first()).toBeVisible();
      }
      await day.click({ force: true });
      await expect(page).not.toHaveURL(new RegExp(`[?&](datum|date)=${holiday.date}`));
    });
  }
});

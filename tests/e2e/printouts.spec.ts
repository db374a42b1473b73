/**
 * Printouts of any length (docs/architecture.md, Back office): a week with
 * 14 bookings and one with 40, printed as the browser prints them (PDF, the
 * page's own A4 sizes) and read back sheet by sheet. Every sheet carries
 * the practice's name, "Seite i von n" and the confidentiality line; a
 * sheet that continues a day repeats that day's date (its heading) above
 * its rows, in the day list and in the week view; every
 * booking is on paper with its status words whole ("gebucht", "abgesagt"),
 * and at the paper's width no table is wider than the sheet and no cell is
 * clipped. The day list prints each patient's birth date and phone beside
 * the name. The weeks lie months ahead, computed from today, so the test
 * works on any day; its type and bookings are removed afterwards.
 */
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday } from './helpers/clock';
import { addDaysToDate, weekdayOf } from '../../src/lib/berlin-time';
import { formatLongDate } from '../../src/lib/dates';
import { hydrated, signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';
import { expectFramed, expectNothingCut, PAPER, printedPages, wordCount } from './helpers/print';

const stamp = Date.now();
const TYPE = `Druck ${stamp}`;
const mondayOf = (date: string) => addDaysToDate(date, -((weekdayOf(date) + 6) % 7));
// Weeks no other spec books into (others use up to 32 weeks ahead); staff may book 365 days ahead.
const WEEKS = { 14: addDaysToDate(mondayOf(berlinToday()), 7 * 40), 40: addDaysToDate(mondayOf(berlinToday()), 7 * 41) } as const;
const TIMES = ['08:00', '08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20', '11:40'];
// Long names, as they come: the printout must neither cut nor lose them.
const LAST = ['Müller-Lüdenscheidt', 'Schäfer', 'Özdemir-Wagenknecht', 'Nguyen', 'Kowalczyk-Brandenburger'];
const FIRST = ['Anna-Katharina', 'Jörg', 'Zoë', 'Maximilian', 'Ewa'];

interface Made {
  id: string;
  reference: string;
  date: string;
  cancelled: boolean;
}
const made: Record<14 | 40, Made[]> = { 14: [], 40: [] };
let typeId = '';

async function api(request: APIRequestContext, page: Page, method: 'post' | 'delete', path: string, data?: unknown) {
  const res = await request[method](path, { headers: { origin: new URL(page.url()).origin }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? null : res.json();
}

/** `count` bookings in the week of `monday` (`perDay` on each day in turn), every fifth cancelled by the practice. */
async function book(page: Page, monday: string, count: number, perDay: number[]): Promise<Made[]> {
  const out: Made[] = [];
  let n = 0;
  for (let day = 0; day < 7 && n < count; day++) {
    const date = addDaysToDate(monday, day);
    for (let i = 0; i < perDay[day]! && n < count; i++, n++) {
      const booking = await api(page.request, page, 'post', '/api/admin/booked-slots', {
        appointment_type_id: typeId,
        appointment_date: date,
        appointment_time: TIMES[Math.floor(i / 2)],
        // A day of these weeks may be a public holiday: staff book it after the warning (docs/decisions/039-public-holidays.md).
        confirm_holiday: true,
        first_name: FIRST[n % FIRST.length],
        last_name: `${LAST[n % LAST.length]} ${n}`,
        phone: `0211 55${String(n).padStart(5, '0')}`,
        birth_date: `${String(1 + (n % 28)).padStart(2, '0')}.0${1 + (n % 9)}.19${50 + n}`,
      });
      out.push({ id: booking.id, reference: booking.reference, date, cancelled: false });
    }
  }
  for (const [i, b] of out.entries()) {
    if (i % 5 !== 4) continue;
    await api(page.request, page, 'post', `/api/admin/booked-slots/${b.id}/cancel`, {});
    b.cancelled = true;
  }
  return out;
}

/** Every sheet holding a booking of `date` (by its reference) names that day's date: a continued day says which day it is. */
function expectDayHeadingOnEverySheet(pages: string[], list: Made[], date: string) {
  const heading = formatLongDate(date, 'de');
  const sheets = pages.map((text, i) => ({ text, i })).filter(({ text }) => list.some((b) => b.date === date && text.includes(b.reference)));
  expect(sheets.length, `${date} runs over more than one sheet`).toBeGreaterThan(1);
  for (const { text, i } of sheets) expect(text, `sheet ${i + 1} names ${heading}`).toContain(heading);
}

/** The printout holds every booking of `list`: its reference, and the status words of all of them, whole. */
function expectAllOnPaper(pages: string[], list: Made[]) {
  const all = pages.join(' ');
  for (const b of list) expect(all, b.reference).toContain(b.reference);
  expect(wordCount(all, 'gebucht'), 'booked rows say "gebucht"').toBe(list.filter((b) => !b.cancelled).length);
  expect(wordCount(all, 'abgesagt'), 'cancelled rows say "abgesagt"').toBeGreaterThanOrEqual(list.filter((b) => b.cancelled).length);
  expect(all).not.toMatch(/gebuch(?!t)|abgesa(?!gt)/);
}

test.describe.serial('printouts', () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(240_000);
    const page = await browser.newPage();
    await signInAsAdmin(page);
    typeId = (
      await api(page.request, page, 'post', '/api/admin/appointment-types', {
        name: TYPE,
        description: 'Nur für den Test.',
        max_advance_days: 30,
        slot_duration_minutes: 20,
        max_slots_per_time: 2,
      })
    ).id;
    await api(page.request, page, 'post', '/api/admin/time-slots', { appointment_type_id: typeId, days_of_week: [1, 2, 3, 4, 5, 6, 7], start_time: '08:00', end_time: '12:00' });
    made[14] = await book(page, WEEKS[14], 14, [2, 2, 2, 2, 2, 2, 2]);
    // A full Wednesday (every seat of the day) and the rest of the week.
    made[40] = await book(page, WEEKS[40], 40, [3, 3, 24, 3, 3, 2, 2]);
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    for (const b of [...made[14], ...made[40]]) await page.request.delete(`/api/admin/booked-slots/${b.id}`, { headers: { origin: new URL(page.url()).origin } });
    await page.request.delete(`/api/admin/appointment-types/${typeId}`, { headers: { origin: new URL(page.url()).origin } });
    await page.close();
  });

  for (const count of [14, 40] as const) {
    test(`a week with ${count} bookings: every sheet framed, every booking on paper, no column cut`, async ({ page }, testInfo) => {
      await signInAsAdmin(page);
      await page.goto(`/admin/woche?datum=${WEEKS[count]}`);
      await hydrated(page);
      await expect(page.getByRole('row').filter({ hasText: TYPE })).toHaveCount(count);
      const { pdf, pages } = await printedPages(page);
      await testInfo.attach(`woche-${count}.pdf`, { body: pdf, contentType: 'application/pdf' });
      expectFramed(pages);
      expectAllOnPaper(pages, made[count]);
      // The full Wednesday of the 40 runs on over the next sheet, which names it again.
      if (count === 40) expectDayHeadingOnEverySheet(pages, made[40], addDaysToDate(WEEKS[40], 2));
      await expectNothingCut(page, PAPER.landscape);
    });
  }

  test('a full day list: birth date and phone beside each name, every sheet framed, nothing cut', async ({ page }, testInfo) => {
    await signInAsAdmin(page);
    const wednesday = addDaysToDate(WEEKS[40], 2);
    const day = made[40].filter((b) => b.date === wednesday);
    await page.goto(`/admin/day-list?datum=${wednesday}`);
    await hydrated(page);
    const rows = page.getByRole('region', { name: new RegExp(formatLongDate(wednesday, 'de')) }).getByRole('row').filter({ hasText: TYPE });
    await expect(rows).toHaveCount(24);
    // The first booking of the week was n = 0 … the Wednesday's first is n = 6.
    await expect(rows.first()).toContainText(`${LAST[6 % LAST.length]} 6, ${FIRST[6 % FIRST.length]}`);
    await expect(rows.first()).toContainText('geb. 07.07.1956');
    await expect(rows.first().getByRole('link', { name: '0211 5500006' })).toHaveAttribute('href', 'tel:02115500006');
    await expectNoAxeViolations(page, 'Tagesliste mit Geburtsdatum und Telefon');

    const { pdf, pages } = await printedPages(page);
    await testInfo.attach('tagesliste.pdf', { body: pdf, contentType: 'application/pdf' });
    expect(pages.length, 'a day of 24 bookings runs on over a second sheet').toBeGreaterThan(1);
    expectFramed(pages);
    // The second sheet says which day it continues: the date heads its rows again.
    expect(pages[1], 'the second sheet names the day').toContain(formatLongDate(wednesday, 'de'));
    expectDayHeadingOnEverySheet(pages, made[40], wednesday);
    expectAllOnPaper(pages, day);
    const all = pages.join(' ');
    expect(all).toContain('geb. 07.07.1956 · Tel. 0211 5500006');
    await expectNothingCut(page, PAPER.portrait);
  });

  test('a printout without patients carries header and page number, not the confidentiality line', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/appointment-types');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Terminarten' })).toBeVisible();
    const { pages } = await printedPages(page);
    expectFramed(pages, { confidential: false });
  });
});

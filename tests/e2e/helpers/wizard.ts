import { expect, type Page } from '@playwright/test';
import { formatLongDate } from '../../../src/lib/dates';

const berlinDate = (offsetDays: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(Date.now() + offsetDays * 864e5));

/**
 * Step 2 on a date that keeps at least `count` free times for the rest of the
 * test. The wizard opens on the first date with a free time, which late in
 * the practice's day is today with its last few times, and several workers
 * book the first times of the first type at once. After the type is chosen,
 * this chooses, in the wizard's calendar, the first date from the day after
 * tomorrow with enough times, unless it is already on one (a date is chosen
 * within step 2, so the history keeps one entry for the step).
 */
export async function onDateWithTimes(page: Page, count = 1): Promise<void> {
  await page.waitForURL(/[?&](datum|date)=\d{4}-\d{2}-\d{2}/);
  const url = new URL(page.url());
  const [typeParam, dateParam] = url.searchParams.has('typ') ? ['typ', 'datum'] : ['type', 'date'];
  const type = url.searchParams.get(typeParam)!;
  const chosen = url.searchParams.get(dateParam)!;
  const from = berlinDate(2);
  const res = await page.request.get(`/api/availability?type=${type}&from=${from}&to=${berlinDate(62)}`);
  expect(res.status()).toBe(200);
  const { days } = (await res.json()) as { days: Array<{ date: string; times: string[] }> };
  if (chosen >= from && (days.find((d) => d.date === chosen)?.times.length ?? 0) >= count) return;
  const day = days.find((d) => d.times.length >= count);
  if (!day) throw new Error(`no date with ${count} free times from ${from}`);
  const dayButton = page.getByRole('button', { name: new RegExp(formatLongDate(day.date, typeParam === 'typ' ? 'de' : 'en')) });
  for (let months = 0; (await dayButton.count()) === 0 && months < 3; months++) {
    await page.getByRole('button', { name: /nächsten Monat|next month/i }).click();
  }
  await dayButton.click();
  await page.waitForURL((u) => u.searchParams.get(dateParam) === day.date);
  const times = page.getByRole('group', { name: /^(Uhrzeit wählen|Select time)$/ }).getByRole('button');
  await expect(times.nth(count - 1)).toBeVisible();
}

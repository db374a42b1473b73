/** The e2e admin: created through /admin-setup when the site has none yet, then signed in through /auth. */
import { expect, type Locator, type Page } from '@playwright/test';
import { formatLongDate } from '../../../src/lib/dates';
import { publicHolidayOn } from '../../../src/lib/holidays';
import { clickDate } from './calendar';

export const ADMIN = { email: 'praxis-admin@example.org', password: 'sicher-und-lang-123' };
export const SETUP_SECRET = 'praxis-setup';

/** Astro drops an island's `ssr` attribute once it has hydrated; before that a click submits the bare HTML form. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.querySelector('astro-island[ssr]') === null);
}

export async function signIn(page: Page, email: string, password: string) {
  await hydrated(page);
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Passwort', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
}

/** Creates the first admin through the setup page unless one exists (on the e2e server, or the server at `base`). */
export async function ensureAdmin(page: Page, base = '') {
  const status = (await (await page.request.get(`${base}/api/auth/status`)).json()) as { adminExists: boolean };
  if (status.adminExists) return;
  await page.goto(`${base}/admin-setup`);
  await hydrated(page);
  await page.getByLabel('E-Mail').fill(ADMIN.email);
  await page.getByLabel('Passwort', { exact: true }).fill(ADMIN.password);
  await page.getByLabel('Admin-Geheimwort').fill(SETUP_SECRET);
  await page.getByRole('button', { name: 'Admin-Benutzer erstellen' }).click();
  await expect(page).toHaveURL(/\/auth$/);
}

/** Signs the page's context in as the admin and lands on the dashboard. */
export async function signInAsAdmin(page: Page, base = '') {
  await ensureAdmin(page, base);
  await page.goto(`${base}/auth`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
}

/**
 * Picks a date and a free time in the staff slot picker inside `scope` (a
 * dialog), as staff do: the date's calendar button (turning to its month
 * first), then the time's button.
 */
export async function pickSlot(scope: Locator, date: string, time: string) {
  await clickDate(scope, date, new RegExp(formatLongDate(date, 'de')));
  const button = scope.getByRole('group', { name: 'Uhrzeit' }).getByRole('button', { name: `${time} Uhr`, exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}

/**
 * The caller's details in "Termin eintragen" (docs/decisions/025): first and
 * last name and phone, the required ones, unless given otherwise.
 */
export async function fillCaller(
  dialog: Locator,
  caller: { first_name: string; last_name: string; phone: string; email?: string } = { first_name: 'Hans', last_name: 'Müller', phone: '0211 7654321' },
) {
  await dialog.getByLabel(/^Vorname/).fill(caller.first_name);
  await dialog.getByLabel(/^Nachname/).fill(caller.last_name);
  await dialog.getByLabel(/^Telefon/).fill(caller.phone);
  if (caller.email) await dialog.getByLabel(/^E-Mail/).fill(caller.email);
}

/**
 * Opens the public holidays among `dates` for online booking, as a practice
 * does for an emergency service (docs/decisions/039-public-holidays.md):
 * for a spec whose days are fixed by the week (next Wednesday, Thursday …)
 * and that books them online, on any day of the year. Answers the function
 * that closes them again, given a signed-in page (the spec's afterAll has
 * its own). `page` is signed in.
 */
export async function openHolidaysAmong(page: Page, dates: string[]): Promise<(signedIn: Page) => Promise<void>> {
  const holidays = dates.filter((date) => publicHolidayOn(date));
  if (!holidays.length) return async () => {};
  const opened = async (on: Page) => ((await (await on.request.get('/api/admin/settings')).json()) as { holidays: { opened: string[] } }).holidays.opened;
  const save = async (on: Page, list: string[]) => {
    const res = await on.request.put('/api/admin/settings', { headers: { origin: new URL(on.url()).origin }, data: { holidays: { opened: list } } });
    expect(res.status(), await res.text()).toBe(200);
  };
  await save(page, [...new Set([...(await opened(page)), ...holidays])]);
  return async (signedIn) => save(signedIn, (await opened(signedIn)).filter((date) => !holidays.includes(date)));
}

/**
 * The patient side of docs/decisions/029, as patients meet it on a 375 px
 * phone and on a desktop, in German and English: every wizard step starts
 * at its heading (focused, below the fixed header); the success screen shows
 * heading and reference without scrolling and no toast covers the header;
 * birth dates in the page's shapes, impossible and future ones named; a
 * reload at step 3 keeps what was typed (sessionStorage only); Back to the
 * home page and Forward twice shows the step the URL names; the link page's
 * cancel asks once; the link of a cancelled appointment says so; the
 * calendar greys out a today without free times and marks the patient's own
 * time when moving; a 429 names how long to wait; the contact form offline
 * says so and keeps the text.
 */
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { formatLongDate } from '../../src/lib/dates';
import { showMonthOf } from './helpers/calendar';
import { berlinDate } from './helpers/clock';
import { bookWithLink, de, en, onDateWithTimes, uniqueEmail, type Texts } from './helpers/wizard';

test.setTimeout(180_000);

const VIEWPORTS = { phone: { width: 375, height: 667 }, desktop: { width: 1280, height: 800 } } as const;

const T = {
  de: {
    wizard: de,
    type: 'Check-up',
    step1: 'Welche Terminart möchten Sie buchen?',
    step2: 'Datum und Uhrzeit wählen',
    step3: 'Ihre Daten',
    booked: 'Ihr Termin ist gebucht!',
    back: 'Zurück',
    hint: 'Format TT.MM.JJJJ, z. B. 15.03.1990',
    impossible: ['31.02.1990', 'Dieses Datum gibt es nicht. Bitte prüfen Sie Tag und Monat.'],
    future: (d: string) => d.split('-').reverse().join('.'),
    futureText: 'Das Geburtsdatum liegt in der Zukunft. Bitte prüfen Sie das Jahr.',
    accepted: ['12.08.1964'],
    cancel: 'Termin absagen',
    dialog: (date: string, time: string) => `Termin am ${formatLongDate(date, 'de')} um ${time} Uhr wirklich absagen?`,
    keep: 'Behalten',
    really: 'Ja, Termin absagen',
    cancelled: 'Termin abgesagt',
    byPatientTitle: 'Termin bereits abgesagt',
    byPatient: (date: string, time: string) => `Sie haben diesen Termin am ${formatLongDate(date, 'de')} um ${time} Uhr abgesagt.`,
    invalid: 'ungültig oder wurde bereits verwendet',
    move: 'Termin verschieben',
    own: 'Ihr Termin',
    time: (t: string) => `${t} Uhr`,
    wait: 'Bitte versuchen Sie es in 2 Minuten erneut',
    contact: { path: '/kontakt', name: 'Name', email: 'E-Mail', message: 'Nachricht', submit: 'Nachricht senden', offline: 'Ihr Gerät ist offline.' },
    success: 'Termin erfolgreich gebucht!',
  },
  en: {
    wizard: en,
    type: 'Health check|Check-up',
    step1: 'Which type of appointment would you like?',
    step2: 'Choose date and time',
    step3: 'Your details',
    booked: 'Your appointment is booked!',
    back: 'Back',
    hint: 'Day first: DD/MM/YYYY or DD.MM.YYYY, e.g. 15/03/1990',
    impossible: ['31/02/1990', 'This date does not exist. Please check the day and month.'],
    future: (d: string) => d.split('-').reverse().join('/'),
    futureText: 'The date of birth is in the future. Please check the year.',
    accepted: ['12/08/1964', '12.08.1964', '1964-08-12'],
    cancel: 'Cancel appointment',
    dialog: (date: string, time: string) => `Really cancel your appointment on ${formatLongDate(date, 'en')} at ${time}?`,
    keep: 'Keep it',
    really: 'Yes, cancel it',
    cancelled: 'Appointment cancelled',
    byPatientTitle: 'Appointment already cancelled',
    byPatient: (date: string, time: string) => `You cancelled this appointment on ${formatLongDate(date, 'en')} at ${time}.`,
    invalid: 'invalid or has already been used',
    move: 'Reschedule',
    own: 'Your appointment',
    time: (t: string) => t,
    wait: 'Please try again in 2 minutes',
    contact: { path: '/en/kontakt', name: 'Name', email: 'Email', message: 'Message', submit: 'Send message', offline: 'Your device is offline.' },
    success: 'Appointment successfully booked!',
  },
} as const;

/** The fixed site header's bottom edge in the viewport. */
const headerBottom = (page: Page) => page.locator('#site-nav').evaluate((el) => el.getBoundingClientRect().bottom);

/**
 * The element lies wholly on screen, below the fixed header: nothing to
 * scroll to read it. Measured once the page has come to rest: the step
 * transition and the header's shrinking run for a few frames after the
 * heading takes focus, and a person reads the screen they end on.
 */
async function expectOnScreenBelowHeader(page: Page, locator: Locator, what: string) {
  await expect(locator, what).toBeVisible();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5_000 });
  const box = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, viewport: window.innerHeight };
  });
  const header = await headerBottom(page);
  expect(box.top, `${what}: below the header`).toBeGreaterThanOrEqual(header - 1);
  expect(box.bottom, `${what}: above the screen's bottom`).toBeLessThanOrEqual(box.viewport + 1);
}

const scrollToBottom = (page: Page) => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const lang of ['de', 'en'] as const) {
    const x = T[lang];
    const w: Texts = x.wizard;

    test.describe(`${lang}, ${device} (${viewport.width} px)`, () => {
      test.use({ viewport });

      test('each step starts at its heading; birth dates; a reload keeps step 3; success shows heading and reference; no toast over the header', async ({
        page,
      }) => {
        await page.goto(w.path);
        await page.getByRole('button', { name: w.choose(x.type) }).click();
        const step2 = page.getByRole('heading', { level: 2, name: x.step2 });
        await expect(step2).toBeFocused();
        await expectOnScreenBelowHeader(page, step2, 'step 2 heading');
        await onDateWithTimes(page, 1);
        const times = page.getByRole('group', { name: w.times }).getByRole('button');
        await times.first().click();

        // "Weiter" from the bottom of the page: step 3 starts at its heading, not mid-form.
        await scrollToBottom(page);
        await page.getByRole('button', { name: w.next, exact: true }).click();
        const step3 = page.getByRole('heading', { level: 2, name: x.step3 });
        await expect(step3).toBeFocused();
        await expectOnScreenBelowHeader(page, step3, 'step 3 heading');
        await expectOnScreenBelowHeader(page, page.getByLabel(w.labels.first), 'first name field');

        // "Zurück" from the bottom: step 2 at its heading; then forward again.
        await scrollToBottom(page);
        await page.getByRole('button', { name: x.back, exact: true }).click();
        await expect(step2).toBeFocused();
        await expectOnScreenBelowHeader(page, step2, 'step 2 heading after Back');
        await scrollToBottom(page);
        await page.getByRole('button', { name: w.next, exact: true }).click();
        await expect(step3).toBeFocused();
        await expectOnScreenBelowHeader(page, step3, 'step 3 heading again');

        // The birth date shows its format before any error; impossible and future dates are named.
        const birth = page.getByLabel(w.labels.birth);
        await expect(page.getByText(x.hint)).toBeVisible();
        await expect(birth).toHaveAttribute('placeholder', lang === 'de' ? 'TT.MM.JJJJ' : 'DD/MM/YYYY');
        await birth.fill(x.impossible[0]);
        await birth.blur();
        await expect(page.getByText(x.impossible[1])).toBeVisible();
        await birth.fill(x.future(berlinDate(1)));
        await expect(page.getByText(x.futureText)).toBeVisible();
        for (const shape of x.accepted) {
          await birth.fill(shape);
          await expect(page.getByText(x.futureText)).toHaveCount(0);
          await expect(birth).not.toHaveAttribute('aria-invalid', 'true');
        }

        // A reload at step 3 keeps what was typed: sessionStorage only, never localStorage or the URL.
        const email = uniqueEmail(`fourth-${lang}-${device}`);
        await page.getByLabel(w.labels.first).fill('Erika');
        await page.getByLabel(w.labels.last).fill('Mustermann');
        await page.getByLabel(w.labels.phone).fill('+49 211 5550123');
        await page.getByLabel(w.labels.email, { exact: false }).first().fill(email);
        await page.reload();
        await expect(page.getByRole('heading', { level: 2, name: x.step3 })).toBeVisible();
        await expect(page.getByLabel(w.labels.first)).toHaveValue('Erika');
        await expect(page.getByLabel(w.labels.last)).toHaveValue('Mustermann');
        await expect(page.getByLabel(w.labels.birth)).toHaveValue(x.accepted.at(-1)!);
        await expect(page.getByLabel(w.labels.email, { exact: false }).first()).toHaveValue(email);
        expect(await page.evaluate(() => localStorage.length === 0 || !Object.values({ ...localStorage }).some((v) => v.includes('Mustermann')))).toBe(true);
        expect(page.url()).not.toContain('Mustermann');
        expect(page.url()).not.toContain(encodeURIComponent(email));

        // Booked: heading and reference on screen without scrolling; the toast does not cover the header.
        await page.getByRole('checkbox', { name: w.labels.consent }).check();
        await page.getByRole('button', { name: w.submit }).click();
        const done = page.getByRole('heading', { name: x.booked });
        await expect(done).toBeFocused();
        await expectOnScreenBelowHeader(page, done, 'success heading');
        await expectOnScreenBelowHeader(page, page.getByTestId('booking-reference'), 'reference');
        const toast = page.locator('[data-sonner-toast]').first();
        await expect(toast).toBeVisible();
        await expect(toast).toContainText(x.success);
        const toastTop = await toast.evaluate((el) => el.getBoundingClientRect().top);
        expect(toastTop, 'the toast stays clear of the header').toBeGreaterThanOrEqual(await headerBottom(page));
        // Cleared on success.
        expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => sessionStorage.getItem(k)?.includes('Mustermann')))).toEqual([]);
      });

      test('Back to the home page and Forward twice shows the step the URL names', async ({ page }) => {
        await page.goto(lang === 'de' ? '/' : '/en/');
        await page.goto(w.path);
        // As a browser that does not keep the page in its back/forward cache (or evicted it): a fresh load on Forward.
        await page.evaluate(() => window.addEventListener('unload', () => {}));
        await page.getByRole('button', { name: w.choose(x.type) }).click();
        await expect(page.getByRole('heading', { level: 2, name: x.step2 })).toBeVisible();
        await expect(page).toHaveURL(/[?&](schritt|step)=2/);
        await page.goBack({ waitUntil: 'commit' });
        await expect(page).toHaveURL((u) => u.pathname.endsWith('/termin') && u.search === '');
        await page.goBack({ waitUntil: 'commit' });
        await expect(page).toHaveURL((u) => !u.pathname.includes('termin'), { timeout: 20_000 });
        await page.goForward({ waitUntil: 'commit' });
        await expect(page).toHaveURL((u) => u.pathname.endsWith('/termin') && u.search === '', { timeout: 20_000 });
        await expect(page.getByRole('heading', { level: 2, name: x.step1 })).toBeVisible({ timeout: 20_000 });
        await page.goForward({ waitUntil: 'commit' });
        await expect(page).toHaveURL(/[?&](schritt|step)=2/, { timeout: 20_000 });
        // The wizard and its step 2 load now, on a busy machine in a few seconds.
        await expect(page.getByRole('heading', { level: 2, name: x.step2 })).toBeVisible({ timeout: 20_000 });
        await expect(page.getByRole('heading', { level: 2, name: x.step1 })).toHaveCount(0);
      });

      test('"Termin absagen" asks once; Escape and "Behalten" keep it; the used link then says the patient cancelled it', async ({ page, request }) => {
        const { day, linkPath } = await bookWithLink(request, 'Reisemedizinische Beratung', lang);
        const time = day.times[0]!;
        const token = new URL(linkPath, 'http://x').searchParams.get('token')!;
        const stillBooked = async () => (await request.get(`/api/bookings/cancel?token=${token}`)).status();
        await page.goto(linkPath);
        const dialog = page.getByRole('alertdialog', { name: x.dialog(day.date, time) });

        await page.getByRole('button', { name: x.cancel }).click();
        await expect(dialog).toBeVisible();
        await expect(dialog).toContainText(lang === 'de' ? 'Reisemedizinische Beratung' : /Travel|Reisemedizinische/);
        await page.keyboard.press('Escape');
        await expect(dialog).toHaveCount(0);
        expect(await stillBooked()).toBe(200);

        await page.getByRole('button', { name: x.cancel }).click();
        await dialog.getByRole('button', { name: x.keep }).click();
        await expect(dialog).toHaveCount(0);
        expect(await stillBooked()).toBe(200);

        await page.getByRole('button', { name: x.cancel }).click();
        await dialog.getByRole('button', { name: x.really }).click();
        await expect(page.getByRole('heading', { level: 1, name: x.cancelled })).toBeVisible();
        expect(await stillBooked()).toBe(410);

        await page.reload();
        await expect(page.getByRole('heading', { level: 1, name: x.byPatientTitle })).toBeVisible();
        await expect(page.getByRole('alert')).toContainText(x.byPatient(day.date, time));
        await expect(page.getByRole('alert')).not.toContainText(x.invalid);
      });

      test('the calendar greys out a today without free times; moving shows the own time as "Ihr Termin", not as a choice', async ({ page, request }) => {
        const today = berlinDate(0);
        const later = berlinDate(2);
        // Answers each month's request with its own days, as the server does (at a month's end, later is next month's).
        await page.route('**/api/availability?*', (route) => {
          const asked = new URL(route.request().url()).searchParams;
          const days = [{ date: today, times: [] }, { date: later, times: ['09:00', '09:20'] }].filter((d) => d.date >= asked.get('from')! && d.date <= asked.get('to')!);
          return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ timezone: 'Europe/Berlin', days }) });
        });
        await page.goto(w.path);
        await page.getByRole('button', { name: w.choose(x.type) }).click();
        await expect(page.getByRole('group', { name: w.times }).getByRole('button', { name: x.time('09:00') })).toBeVisible();
        // At a month's end the calendar opens on the next month, where the free date is: turn back to today's.
        await showMonthOf(page, today, lang);
        const todayCell = page.locator(`[data-day="${today}"]`);
        await expect(todayCell.getByRole('button')).toBeDisabled();
        const accent = await page.locator('.rdp-root').evaluate((root) => getComputedStyle(root).getPropertyValue('--rdp-accent-color'));
        const color = await todayCell.evaluate((el) => getComputedStyle(el).color);
        const plain = await page.locator('.rdp-day.rdp-disabled:not(.rdp-today):not(.rdp-outside)').first().evaluate((el) => getComputedStyle(el).color);
        expect(color, `today (accent ${accent.trim()}) looks like any day that cannot be chosen`).toBe(plain);
        await page.unroute('**/api/availability?*');

        const { day, linkPath } = await bookWithLink(request, 'Check-up', lang, 3);
        const own = day.times[0]!;
        await page.goto(linkPath);
        await page.getByRole('button', { name: x.move }).click();
        const group = page.getByRole('group', { name: w.times });
        await expect(group.getByRole('button', { name: x.time(day.times[1]!) })).toBeVisible();
        await expect(group.getByTestId('own-time')).toContainText(own);
        await expect(group.getByTestId('own-time')).toContainText(x.own);
        await expect(group.getByRole('button', { name: x.time(own), exact: true })).toHaveCount(0);
      });

      test('a 429 names how long to wait; the contact form offline says so and keeps the text', async ({ page, context }) => {
        await page.goto(w.path);
        await page.getByRole('button', { name: w.choose(x.type) }).click();
        await onDateWithTimes(page, 1);
        await page.getByRole('group', { name: w.times }).getByRole('button').first().click();
        await page.getByRole('button', { name: w.next, exact: true }).click();
        await page.route('**/api/bookings', (route) =>
          route.fulfill({ status: 429, headers: { 'retry-after': '120' }, contentType: 'application/problem+json', body: JSON.stringify({ type: 'rate-limited', status: 429 }) }),
        );
        await page.getByLabel(w.labels.first).fill('Erika');
        await page.getByLabel(w.labels.last).fill('Mustermann');
        await page.getByLabel(w.labels.birth).fill(x.accepted[0]);
        await page.getByLabel(w.labels.phone).fill('+49 211 5550123');
        await page.getByLabel(w.labels.email, { exact: false }).first().fill(uniqueEmail('wait'));
        await page.getByRole('checkbox', { name: w.labels.consent }).check();
        await page.getByRole('button', { name: w.submit }).click();
        await expect(page.locator('[data-sonner-toast]').filter({ hasText: x.wait })).toBeVisible();

        const c = x.contact;
        await page.goto(c.path);
        await page.locator('form').hover();
        await expect(page.locator('astro-island')).not.toHaveAttribute('ssr', /.*/);
        await page.getByLabel(new RegExp(`^${c.name}`)).fill('Erika Mustermann');
        await page.getByLabel(new RegExp(`^${c.email}`)).fill('erika@example.org');
        await page.getByLabel(new RegExp(`^${c.message}`)).fill('Bitte um Rückruf wegen Befund.');
        await context.setOffline(true);
        try {
          await page.getByRole('button', { name: c.submit }).click();
          await expect(page.locator('[data-sonner-toast]').filter({ hasText: c.offline })).toBeVisible();
          await expect(page.getByLabel(new RegExp(`^${c.message}`))).toHaveValue('Bitte um Rückruf wegen Befund.');
        } finally {
          await context.setOffline(false);
        }
      });
    });
  }
}

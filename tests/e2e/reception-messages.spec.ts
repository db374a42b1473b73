/**
 * Staff messages and begun appointments (docs/decisions/030), on a 360 px phone and on a
 * desktop: "Verschieben" and a block that cancels take a message to the
 * patient (the block's reason offered), each dialog names the email's
 * language and says the message goes as typed; a type saved without English
 * text warns and the English booking page marks its German text; toasts in
 * the page's words; overlapping windows refused naming the other; password
 * rules before the first attempt; the dashboard tile says what it counts;
 * day counts leave practice cancellations out; the sidebar reaches the
 * bottom of a long page; day list and week view print without a blank
 * second page (the week in landscape).
 */
import path from 'node:path';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday } from './helpers/clock';
import { addDaysToDate, weekdayOf } from '../../src/lib/berlin-time';
import { formatLongDate } from '../../src/lib/dates';
import { readOutbox } from '../helpers/eml';
import { bookingRequest } from '../helpers/patient';
import { hydrated, openHolidaysAmong, pickSlot, signInAsAdmin } from './helpers/admin';
import { PHONE } from './helpers/phone';

const stamp = Date.now();
const mondayOf = (date: string) => addDaysToDate(date, -((weekdayOf(date) + 6) % 7));
const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
const mediaBox = (pdf: Buffer) => {
  const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(pdf.toString('latin1'));
  return box ? [Math.round(Number(box[1])), Math.round(Number(box[2]))] : null;
};

async function api(request: APIRequestContext, page: Page, method: 'post' | 'delete', url: string, data?: unknown) {
  const res = await request[method](url, { headers: { origin: new URL(page.url()).origin }, data });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return res.status() === 204 ? null : res.json();
}

async function mailTo(to: string, subjectStart: string) {
  const find = async () => (await readOutbox(outbox())).find((m) => m.headers.to === to && m.subject.startsWith(subjectStart));
  await expect.poll(async () => !!(await find()), { timeout: 15_000 }).toBe(true);
  return (await find())!;
}

const VIEWPORTS = [
  { name: '360 px', size: PHONE, week: 1 },
  { name: 'desktop', size: { width: 1280, height: 800 }, week: 2 },
] as const;

test.describe.serial('reception messages and details', () => {
  // Each test signs in, drives dialogs and reads the outbox: more than the default 30 s on a loaded machine.
  test.describe.configure({ timeout: 90_000 });
  let typeId = '';
  const TYPE = `Nachricht ${stamp}`;

  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    typeId = (
      await api(page.request, page, 'post', '/api/admin/appointment-types', {
        name: TYPE,
        name_en: `Message ${stamp}`,
        description: 'Nur für den Test.',
        description_en: 'Test only.',
        max_advance_days: 40,
        slot_duration_minutes: 20,
        max_slots_per_time: 1,
      })
    ).id;
    await api(page.request, page, 'post', '/api/admin/time-slots', { appointment_type_id: typeId, days_of_week: [1, 2, 3, 4, 5, 6, 7], start_time: '08:00', end_time: '12:00' });
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    const slots = (await (await page.request.get('/api/admin/booked-slots')).json()) as Array<{ id: string; appointment_type_id: string; status: string }>;
    for (const s of slots.filter((x) => x.appointment_type_id === typeId && x.status === 'booked')) {
      await page.request.delete(`/api/admin/booked-slots/${s.id}`, { headers: { origin: new URL(page.url()).origin } });
    }
    const blocks = (await (await page.request.get('/api/admin/blocked-dates')).json()) as Array<{ id: string; appointment_type_id: string | null; reason: string | null }>;
    for (const b of blocks.filter((x) => x.appointment_type_id === typeId || x.reason?.includes(String(stamp)))) {
      await page.request.delete(`/api/admin/blocked-dates/${b.id}?scope=range`, { headers: { origin: new URL(page.url()).origin } });
    }
    await page.request.delete(`/api/admin/appointment-types/${typeId}`, { headers: { origin: new URL(page.url()).origin } });
    await page.close();
  });

  for (const vp of VIEWPORTS) {
    test(`"Verschieben" and a block that cancels carry a message, name the email's language and say it goes as typed (${vp.name})`, async ({ page }) => {
      await page.setViewportSize(vp.size);
      const monday = addDaysToDate(mondayOf(berlinToday()), 7 * vp.week);
      const day = addDaysToDate(monday, 1);
      const english = `englisch-${vp.week}-${stamp}@example.org`;
      const german = `deutsch-${vp.week}-${stamp}@example.org`;
      await signInAsAdmin(page);
      // The days are fixed by the week: a public holiday among them is opened for this test (then closed again).
      const closeHolidays = await openHolidaysAmong(page, [day, addDaysToDate(day, 1)]);
      for (const [time, email, language] of [['09:00', english, 'en'], ['10:00', german, 'de']] as const) {
        const res = await page.request.post('/api/bookings', { data: bookingRequest(typeId, day, time, { email, language }) });
        expect(res.status()).toBe(201);
      }
      const germanRef = ((await (await page.request.get(`/api/admin/booked-slots?from=${day}&to=${day}`)).json()) as Array<{ reference: string; appointment_time: string }>).find(
        (s) => s.appointment_time === '10:00',
      )!.reference;

      // Verschieben: the patient's language, the message sent as typed.
      await page.goto(`/admin/booked-slots?datum=${day}`);
      await hydrated(page);
      const row = page.getByRole('row').filter({ hasText: germanRef });
      await row.getByRole('button', { name: /verschieben$/ }).click();
      const move = page.getByRole('dialog', { name: 'Termin verschieben' });
      await expect(move).toContainText('Der Patient erhält die E-Mail auf Deutsch');
      await expect(move.getByText(/Ihre Nachricht wird so gesendet, wie Sie sie schreiben/)).toBeVisible();
      await pickSlot(move, addDaysToDate(day, 1), '11:00');
      const moveMessage = `Wir mussten umplanen (${vp.week}).`;
      await move.getByLabel('Nachricht an den Patienten (optional)').fill(moveMessage);
      await move.getByRole('button', { name: 'Verschieben', exact: true }).click();
      await expect(move).toBeHidden();
      expect((await mailTo(german, 'Ihr Termin wurde verlegt')).text).toContain(moveMessage);

      // A block over the English booking: language named, the reason offered as the message.
      await page.goto('/admin/blocked-dates');
      await hydrated(page);
      await page.getByRole('button', { name: 'Tag sperren' }).click();
      const dialog = page.getByRole('dialog', { name: 'Tag sperren' });
      await dialog.getByLabel('Datum (erster Tag)').fill(day);
      await dialog.getByLabel('Terminart').selectOption({ label: TYPE });
      await dialog.getByLabel('Grund (optional)').fill('Praxis geschlossen');
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      const covered = dialog.getByRole('list', { name: 'Betroffene Termine' });
      await expect(covered).toContainText('E-Mail auf Englisch');
      const message = dialog.getByLabel('Nachricht an den Patienten (optional)');
      await expect(message).toHaveValue('Praxis geschlossen');
      await expect(dialog.getByText(/Ihre Nachricht wird so gesendet, wie Sie sie schreiben/)).toBeVisible();
      const blockMessage = `The practice is closed, please call us (${vp.week}).`;
      await message.fill(blockMessage);
      await dialog.getByRole('button', { name: /^Sperren und diese Termine absagen/ }).click();
      await expect(page.getByText('Tag gesperrt')).toBeVisible();
      await expect(dialog.getByText('Gesperrt. 1 Termin wurde abgesagt:')).toBeVisible();
      const mail = await mailTo(english, 'The practice has cancelled your appointment');
      expect(mail.text).toContain(blockMessage);
      await dialog.getByRole('button', { name: 'Fertig' }).click();

      // Refused before today, naming the date.
      await page.getByRole('button', { name: 'Tag sperren' }).click();
      await dialog.getByLabel('Datum (erster Tag)').fill(addDaysToDate(berlinToday(), -1));
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog.getByText('Eine Sperrung kann frühestens heute beginnen.')).toBeVisible();
      // A range: "Zeitraum gesperrt".
      await dialog.getByLabel('Datum (erster Tag)').fill(addDaysToDate(monday, 5));
      await dialog.getByLabel('Bis einschließlich (optional)').fill(addDaysToDate(monday, 6));
      await dialog.getByLabel('Terminart').selectOption({ label: TYPE });
      await dialog.getByLabel('Grund (optional)').fill(`Wochenende ${stamp}`);
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(page.getByText('Zeitraum gesperrt')).toBeVisible();
      await closeHolidays(page);
    });

    test(`types without English warn and English pages mark the German text; windows never overlap; page words in toasts (${vp.name})`, async ({ page, browser }) => {
      await page.setViewportSize(vp.size);
      await signInAsAdmin(page);
      const name = `Nur Deutsch ${vp.week} ${stamp}`;
      await page.goto('/admin/appointment-types');
      await hydrated(page);
      await page.getByRole('button', { name: 'Neue Terminart' }).click();
      const dialog = page.getByRole('dialog', { name: 'Neue Terminart' });
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      await dialog.getByRole('textbox', { name: 'Beschreibung', exact: true }).fill('Nur auf Deutsch beschrieben.');
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(page.getByText('Terminart erstellt')).toBeVisible();
      await expect(page.getByText('Ohne englischen Namen und englische Beschreibung gespeichert. Auf /en erscheint der deutsche Text.')).toBeVisible();
      const types = (await (await page.request.get('/api/admin/appointment-types')).json()) as Array<{ id: string; name: string }>;
      const id = types.find((t) => t.name === name)!.id;

      // Windows: a second one overlapping the first is refused, naming it.
      await page.goto('/admin/time-slots');
      await hydrated(page);
      for (const [start, end] of [
        ['08:00', '12:00'],
        ['11:00', '13:00'],
      ] as const) {
        await page.getByRole('button', { name: 'Neues Zeitfenster' }).click();
        const windowDialog = page.getByRole('dialog', { name: 'Neues Zeitfenster' });
        await windowDialog.getByRole('combobox', { name: 'Terminart' }).selectOption({ label: name });
        await windowDialog.getByLabel(/^Startzeit/).fill(start);
        await windowDialog.getByLabel(/^Endzeit/).fill(end);
        await windowDialog.getByRole('button', { name: 'Speichern' }).click();
      }
      const overlap = 'Überschneidet sich mit dem Zeitfenster Montag, 08:00–12:00 Uhr derselben Terminart.';
      await expect(page.getByRole('dialog', { name: 'Neues Zeitfenster' }).getByText(new RegExp(`^${overlap}`))).toBeVisible();
      await page.keyboard.press('Escape');

      // The English booking page: the German text stands in, marked lang="de".
      const patient = await browser.newPage({ viewport: vp.size });
      await patient.goto('/en/termin');
      const card = patient.getByRole('listitem').filter({ has: patient.getByRole('heading', { name }) });
      await expect(card.getByRole('heading', { name })).toHaveAttribute('lang', 'de');
      await expect(card.getByText('Nur auf Deutsch beschrieben.')).toHaveAttribute('lang', 'de');
      await patient.goto('/termin');
      await expect(patient.getByRole('heading', { name })).not.toHaveAttribute('lang', 'de');
      await patient.close();
      await page.request.delete(`/api/admin/appointment-types/${id}`, { headers: { origin: new URL(page.url()).origin } });
    });

    test(`password rules before the first attempt and the dashboard tile's meaning (${vp.name})`, async ({ page }) => {
      await page.setViewportSize(vp.size);
      await signInAsAdmin(page);
      await expect(page.getByRole('link', { name: 'Buchungen ohne Praxis-Benachrichtigung' })).toHaveAccessibleDescription(
        'Online-Buchungen, deren E-Mail an die Praxis nicht zugestellt wurde. Die Termine gelten trotzdem; die Liste zeigt sie.',
      );
      await page.goto('/admin/password');
      await hydrated(page);
      const rules = 'Mindestens 12 Zeichen und kein verbreitetes Passwort (wie „passwort1234“). Gut zu merken: mehrere Wörter als Satz.';
      await expect(page.getByText(rules)).toBeVisible();
      await expect(page.getByLabel('Neues Passwort')).toHaveAccessibleDescription(rules);
    });

    test(`day counts leave practice cancellations out; day list and week print without a blank page, the week in landscape (${vp.name})`, async ({ page }) => {
      await page.setViewportSize(vp.size);
      await signInAsAdmin(page);
      // A week months ahead, which no other spec books into: its only appointments are these.
      const monday = addDaysToDate(mondayOf(berlinToday()), 7 * (vp.week + 30));
      const day = addDaysToDate(monday, 2);
      const made = [];
      for (const time of ['08:00', '08:20', '08:40', '09:00']) {
        made.push(await api(page.request, page, 'post', '/api/admin/booked-slots', {
          appointment_type_id: typeId,
          appointment_date: day,
          appointment_time: time,
          // The day may be a public holiday: staff book it after the warning (docs/decisions/039-public-holidays.md).
          confirm_holiday: true,
          first_name: 'Erika',
          last_name: `Muster ${time}`,
          phone: '0211 123456',
        }));
      }
      await api(page.request, page, 'post', `/api/admin/booked-slots/${made[3].id}/cancel`, {});
      await page.goto(`/admin/day-list?datum=${day}`);
      const heading = page.getByRole('heading', { name: new RegExp(formatLongDate(day, 'de')) });
      await expect(heading).toContainText('3 Termine, 1 abgesagt');

      await page.emulateMedia({ media: 'print' });
      const dayPdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      expect(pageCount(dayPdf), 'the day list prints on one page').toBe(1);
      expect(mediaBox(dayPdf)).toEqual([595, 842]);
      await page.emulateMedia({ media: 'screen' });

      await page.goto(`/admin/woche?datum=${day}`);
      await expect(page.getByRole('heading', { name: new RegExp(formatLongDate(day, 'de')) })).toContainText('3 Termine, 1 abgesagt');
      await page.emulateMedia({ media: 'print' });
      const weekPdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      expect(mediaBox(weekPdf), 'A4 landscape').toEqual([842, 595]);
      // Seven days, one of them with appointments: one landscape page, no blank one after it.
      expect(pageCount(weekPdf), 'the week prints on one page').toBe(1);
      await page.emulateMedia({ media: 'screen' });
    });
  }

  test('the sidebar background reaches the bottom of a long page (desktop)', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await signInAsAdmin(page);
    await page.goto(`/admin/woche?datum=${addDaysToDate(mondayOf(berlinToday()), 21)}`);
    const sidebar = page.getByRole('complementary', { name: 'Admin-Navigation' });
    await expect(sidebar).toBeVisible();
    // The week has drawn (its last day's heading): measured before, the page is only as tall as "Wird geladen".
    await expect(page.getByRole('heading', { name: /^Sonntag/ })).toBeVisible();
    const { pageHeight, bottom } = await sidebar.evaluate((el) => ({
      pageHeight: document.documentElement.scrollHeight,
      bottom: el.getBoundingClientRect().bottom + window.scrollY,
    }));
    expect(pageHeight, 'the week view is longer than the screen').toBeGreaterThan(700);
    expect(bottom).toBeGreaterThanOrEqual(pageHeight - 1);
    // The links stay in view while scrolling.
    await page.mouse.wheel(0, pageHeight);
    await expect(sidebar.getByRole('link', { name: 'Dashboard' })).toBeInViewport();
  });
});

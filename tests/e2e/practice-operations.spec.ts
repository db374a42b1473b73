/**
 * Practice operations (docs/decisions/010) end to end: a phone booking ("Termin
 * eintragen") takes its time away from the public wizard, a partial-day
 * block removes exactly the times inside its range, a patient's
 * cancellation through the emailed link sends the practice a German notice,
 * and a booking whose practice notification failed is marked in the back
 * office and asks the patient to call.
 *
 * Everything happens on types this file creates (capacity 1, 08:00–12:00
 * every day, 20 minutes) on dates several days ahead, so neither the time
 * of day nor the other specs' bookings matter; the types go again at the end.
 */
import path from 'node:path';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday, openDays } from './helpers/clock';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { formatLongDate, formatShortDate } from '../../src/lib/dates';
import { practice } from '../../src/lib/practice';
import { readOutbox } from '../helpers/eml';
import { hydrated, pickSlot, signInAsAdmin, fillCaller } from './helpers/admin';
import { clickDate } from './helpers/calendar';
import { bookingRequest, testCaller } from '../helpers/patient';
import { startSecondServer, type SecondServer } from './helpers/second-server';

const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');
const stamp = Date.now();
/** Every start time of a 20-minute type in 08:00–12:00. */
const ALL_TIMES = ['08:00', '08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20', '11:40'];
/** The practice's own address in development (src/server/env.server.ts LOCAL_DEFAULTS). */
const PRACTICE_EMAIL = 'praxis@localhost';
/** Six characters without look-alikes (src/lib/booking-reference.ts). */
const REFERENCE = /^[A-Z2-9]{6}$/;

interface Type {
  id: string;
  name: string;
}

const originOf = (base: string) => ({ origin: new URL(base).origin });

/** A capacity-1 type of 20 minutes bookable 08:00–12:00 on every weekday, through the admin API. */
async function createType(request: APIRequestContext, base: string, name: string): Promise<Type> {
  const res = await request.post(`${base}/api/admin/appointment-types`, {
    headers: originOf(base),
    data: { name, description: 'Nur für den Test.', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1 },
  });
  expect(res.status()).toBe(201);
  const type = (await res.json()) as Type;
  for (let day = 0; day < 7; day++) {
    const window = await request.post(`${base}/api/admin/time-slots`, {
      headers: originOf(base),
      data: { appointment_type_id: type.id, day_of_week: day, start_time: '08:00', end_time: '12:00' },
    });
    expect(window.status()).toBe(201);
  }
  return type;
}

/** Releases the type's bookings, removes its blocks, deletes it. */
async function removeType(request: APIRequestContext, base: string, type: Type) {
  const slots = (await (await request.get(`${base}/api/admin/booked-slots`)).json()) as Array<{ id: string; appointment_type_id: string; status: string }>;
  for (const s of slots.filter((s) => s.appointment_type_id === type.id && s.status === 'booked')) {
    expect((await request.delete(`${base}/api/admin/booked-slots/${s.id}`, { headers: originOf(base) })).ok()).toBe(true);
  }
  const blocks = (await (await request.get(`${base}/api/admin/blocked-dates`)).json()) as Array<{ id: string; appointment_type_id: string | null }>;
  for (const b of blocks.filter((b) => b.appointment_type_id === type.id)) {
    expect((await request.delete(`${base}/api/admin/blocked-dates/${b.id}`, { headers: originOf(base) })).status()).toBe(204);
  }
  expect((await request.delete(`${base}/api/admin/appointment-types/${type.id}`, { headers: originOf(base) })).status()).toBe(204);
}

const bookingBody = (typeId: string, date: string, time: string, email = `praxisbetrieb-${stamp}@example.org`) => bookingRequest(typeId, date, time, { email });

/** The public wizard's step 2 for a type and date (the date travels in the URL): the free times it offers. */
async function wizardTimes(wizard: Page, typeId: string, date: string, base = ''): Promise<string[]> {
  await wizard.goto(`${base}/termin?schritt=2&typ=${typeId}&datum=${date}`);
  const times = wizard.getByRole('group', { name: 'Uhrzeit wählen' }).getByRole('button');
  await expect(times.first()).toBeVisible();
  // The times shown are the chosen date's (an unselectable date would move to the first free one).
  await expect(wizard.getByText(formatLongDate(date, 'de'), { exact: true }).first()).toBeVisible();
  return (await times.allTextContents()).map((t) => t.trim());
}

/** Steps 2 to 4 of the wizard on a type, date and time: books with valid details and waits for the success screen. */
async function bookInWizard(wizard: Page, typeId: string, date: string, time: string, email: string, base = '') {
  await wizard.goto(`${base}/termin?schritt=2&typ=${typeId}&datum=${date}`);
  const button = wizard.getByRole('group', { name: 'Uhrzeit wählen' }).getByRole('button', { name: `${time} Uhr`, exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await wizard.getByRole('button', { name: 'Weiter', exact: true }).click();
  await wizard.getByLabel('Vorname').fill('Erika');
  await wizard.getByLabel('Nachname').fill('Mustermann');
  await wizard.getByLabel('Geburtsdatum').fill('12.08.1964');
  await wizard.getByLabel('Telefon').fill('+49 211 5550123');
  await wizard.getByRole('textbox', { name: 'E-Mail' }).fill(email);
  await wizard.getByRole('checkbox', { name: /Datenschutzerklärung/ }).check();
  await wizard.getByRole('button', { name: 'Termin verbindlich buchen' }).click();
  await expect(wizard.getByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeVisible();
}

test.describe.serial('practice operations', () => {
  // Three ordinary days in a row (no public holiday), from four days ahead.
  const phoneDate = openDays(addDaysToDate(berlinToday(), 4), 3);
  const blockDate = addDaysToDate(phoneDate, 1);
  const cancelDate = addDaysToDate(phoneDate, 2);
  const types: Type[] = [];
  let base = '';

  test.afterAll(async ({ browser }) => {
    if (types.length === 0) return;
    const page = await browser.newPage();
    await signInAsAdmin(page);
    for (const type of types) await removeType(page.request, base, type);
    await page.close();
  });

  test('a phone booking ("Termin eintragen", Telefon) takes the time away from the wizard; the list shows source and reference', async ({ page, context }) => {
    await signInAsAdmin(page);
    base = new URL(page.url()).origin;
    const type = await createType(page.request, base, `Telefontermin ${stamp}`);
    types.push(type);
    const wizard = await context.newPage();
    expect(await wizardTimes(wizard, type.id, phoneDate)).toEqual(ALL_TIMES);

    await page.getByRole('navigation', { name: 'Admin-Navigation' }).getByRole('link', { name: 'Gebuchte Termine' }).click();
    await expect(page).toHaveURL(/\/admin\/booked-slots$/);
    await hydrated(page);
    await page.getByRole('button', { name: 'Termin eintragen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Termin eintragen' });
    await expect(dialog).toContainText('gelöscht am Ende des Termintags');
    // The type, then a date and a free time picked from the calendar (no free typing), then the caller.
    await dialog.getByLabel('Terminart').selectOption({ label: type.name });
    await pickSlot(dialog, phoneDate, '09:00');
    await fillCaller(dialog);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/booked-slots') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    const booked = (await answer.json()) as { reference: string; source: string };
    expect(booked.source).toBe('phone');
    expect(booked.reference).toMatch(REFERENCE);
    await expect(page.getByText(`Termin eingetragen (Buchungsnummer ${booked.reference})`)).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.getByLabel('Nach Terminart suchen').fill(type.name);
    const rows = page.getByRole('row').filter({ hasText: type.name });
    await expect(rows).toHaveCount(1);
    const cells = rows.first().getByRole('cell');
    await expect(cells.nth(0)).toHaveText(formatShortDate(phoneDate));
    await expect(cells.nth(1)).toHaveText('09:00');
    await expect(cells.nth(2)).toContainText('Müller, Hans');
    await expect(cells.nth(4)).toHaveText(booked.reference);
    await expect(cells.nth(5)).toHaveText('Telefon');

    // The wizard no longer offers 09:00 on that date; every other time stays.
    expect(await wizardTimes(wizard, type.id, phoneDate)).toEqual(ALL_TIMES.filter((t) => t !== '09:00'));
    // The booking re-check refuses it too, and staff cannot take it twice.
    expect((await page.request.post('/api/bookings', { data: bookingBody(type.id, phoneDate, '09:00') })).status()).toBe(409);
    await page.getByRole('button', { name: 'Termin eintragen' }).click();
    await dialog.getByLabel('Terminart').selectOption({ label: type.name });
    // The calendar opens on its first free date, which may lie in another month than the phone date.
    await clickDate(dialog, phoneDate, new RegExp(formatLongDate(phoneDate, 'de')));
    await expect(dialog.getByRole('group', { name: 'Uhrzeit' }).getByRole('button', { name: '09:20 Uhr' })).toBeVisible();
    await expect(dialog.getByRole('group', { name: 'Uhrzeit' }).getByRole('button', { name: '09:00 Uhr' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();

    // An online booking of the same type shows as Online beside it, without the "not notified" mark.
    const online = await page.request.post('/api/bookings', { data: bookingBody(type.id, phoneDate, '08:20') });
    expect(online.status()).toBe(201);
    const onlineReference = ((await online.json()) as { booking: { reference: string } }).booking.reference;
    await page.reload();
    await page.getByLabel('Nach Terminart suchen').fill(type.name);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByRole('cell').nth(4)).toHaveText(onlineReference);
    await expect(rows.nth(0).getByRole('cell').nth(5)).toHaveText('Online');
    await expect(rows.nth(1).getByRole('cell').nth(5)).toHaveText('Telefon');
    await expect(rows.filter({ hasText: 'Praxis nicht benachrichtigt' })).toHaveCount(0);
    expect(await wizardTimes(wizard, type.id, phoneDate)).toEqual(ALL_TIMES.filter((t) => t !== '09:00' && t !== '08:20'));
  });

  test('a partial-day block (10:00–12:00, one type) removes exactly the times inside it; the list shows the range', async ({ page, context }) => {
    await signInAsAdmin(page);
    const blocked = types[0]!;
    const other = await createType(page.request, base, `Ohne Sperre ${stamp}`);
    types.push(other);
    const wizard = await context.newPage();
    expect(await wizardTimes(wizard, blocked.id, blockDate)).toEqual(ALL_TIMES);

    await page.getByRole('navigation', { name: 'Admin-Navigation' }).getByRole('link', { name: 'Gesperrte Tage' }).click();
    await expect(page).toHaveURL(/\/admin\/blocked-dates$/);
    await hydrated(page);
    await page.getByRole('button', { name: 'Tag sperren' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tag sperren' });
    await dialog.getByLabel('Datum').fill(blockDate);
    // Only one end of the range: refused with the field named.
    await dialog.getByLabel('Von (optional)').fill('10:00');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Bitte Start- und Endzeit angeben oder beide leer lassen (ganzer Tag).')).toBeVisible();
    await expect(dialog.getByLabel('Bis (optional)')).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('Bis (optional)').fill('12:00');
    await dialog.getByLabel('Terminart').selectOption({ label: blocked.name });
    await dialog.getByLabel('Grund (optional)').fill('Teambesprechung');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Tag gesperrt')).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('listitem').filter({ hasText: formatShortDate(blockDate) }).filter({ hasText: blocked.name });
    await expect(row).toContainText('10:00–12:00 Uhr');
    await expect(row).toContainText('Teambesprechung');
    await expect(row).not.toContainText('ganzer Tag');

    // The blocked type keeps exactly the times that end by 10:00; the other type keeps all of them.
    expect(await wizardTimes(wizard, blocked.id, blockDate)).toEqual(['08:00', '08:20', '08:40', '09:00', '09:20', '09:40']);
    expect(await wizardTimes(wizard, other.id, blockDate)).toEqual(ALL_TIMES);
    // The booking re-check honours the range: inside refused, just before it accepted.
    expect((await page.request.post('/api/bookings', { data: bookingBody(blocked.id, blockDate, '11:40') })).status()).toBe(409);
    expect((await page.request.post('/api/bookings', { data: bookingBody(blocked.id, blockDate, '10:00') })).status()).toBe(409);
    expect((await page.request.post('/api/bookings', { data: bookingBody(blocked.id, blockDate, '09:40') })).status()).toBe(201);
    // And so do staff bookings.
    const staff = await page.request.post('/api/admin/booked-slots', {
      headers: originOf(base),
      data: { appointment_type_id: blocked.id, appointment_date: blockDate, appointment_time: '10:20', ...testCaller },
    });
    expect(staff.status()).toBe(409);

    // Removed, the range is bookable again.
    await row.getByRole('button', { name: /entfernen$/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sperrung entfernen' }).click();
    await expect(page.getByText('Sperrung entfernt')).toBeVisible();
    expect(await wizardTimes(wizard, blocked.id, blockDate)).toEqual(ALL_TIMES.filter((t) => t !== '09:40'));
  });

  test("a patient's cancellation through the emailed link sends the practice a German notice with type, date, time and reference", async ({ page }) => {
    const type = types[0]!;
    const email = `absage-${stamp}@example.org`;
    await bookInWizard(page, type.id, cancelDate, '11:20', email);
    const reference = (await page.getByTestId('booking-reference').textContent())!.trim();
    expect(reference).toMatch(REFERENCE);

    // Both emails carry the reference shown on the success screen.
    // The confirmation to the patient and the practice's notification (which names no patient).
    const bookingMails = async () =>
      (await readOutbox(outbox())).filter((m) => m.headers.to === email || (m.headers.to === PRACTICE_EMAIL && m.text.includes(`Buchungsnummer: ${reference}`)));
    // Sent right after the answer, not with it.
    await expect.poll(async () => (await bookingMails()).length).toBe(2);
    let mails = await bookingMails();
    for (const mail of mails) expect(mail.text).toContain(`Buchungsnummer: ${reference}`);
    const confirmation = mails.find((m) => m.headers.to === email)!;
    const link = new URL(/(https?:\/\/\S+\/termin\/absagen\?token=[A-Za-z0-9_-]+)/.exec(confirmation.text)![1]!);

    await page.goto(link.pathname + link.search);
    await expect(page.getByRole('heading', { name: 'Möchten Sie diesen Termin absagen?' })).toBeVisible();
    await page.getByRole('button', { name: 'Termin absagen' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Ja, Termin absagen' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Termin abgesagt' })).toBeVisible();

    const subject = `Termin abgesagt: ${type.name} am ${formatShortDate(cancelDate)} um 11:20 Uhr (${reference})`;
    await expect.poll(async () => (await readOutbox(outbox())).filter((m) => m.subject === subject).length).toBe(1);
    const notice = (await readOutbox(outbox())).find((m) => m.subject === subject)!;
    expect(notice.headers.to).toBe(PRACTICE_EMAIL);
    expect(notice.html).toContain('<html lang="de">');
    expect(notice.text).toContain('über den Link in der Bestätigungs-E-Mail abgesagt');
    expect(notice.text).toContain(`Buchungsnummer: ${reference}`);
    expect(notice.text).toContain(`Terminart: ${type.name}`);
    expect(notice.text).toContain(`Datum: ${formatLongDate(cancelDate, 'de')}`);
    expect(notice.text).toContain('Uhrzeit: 11:20 Uhr');
    // Nothing of the patient: they are not named, and no reply goes to them.
    for (const text of ['Erika', 'Mustermann', email, '1964', '5550123']) expect(notice.raw).not.toContain(text);
    expect(notice.headers['reply-to']).toBeUndefined();

    // The time is free again and the booking gone from the list.
    expect(await wizardTimes(page, type.id, cancelDate)).toContain('11:20');
    await signInAsAdmin(page);
    const slots = (await (await page.request.get('/api/admin/booked-slots')).json()) as Array<{ reference: string }>;
    expect(slots.map((s) => s.reference)).not.toContain(reference);
    mails = (await readOutbox(outbox())).filter((m) => m.subject.startsWith('Termin abgesagt:') && m.subject.includes(reference));
    expect(mails).toHaveLength(1);
  });
});

test.describe('a booking whose practice notification failed', () => {
  let server: SecondServer;
  let url: string;

  test.beforeAll(async () => {
    // The practice notification fails for real while the patient's confirmation goes out.
    test.setTimeout(90_000);
    server = await startSecondServer('unnotified', { PRACTICE_EMAIL: 'praxis@mail.invalid' });
    url = server.url;
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('is marked in the admin list and counted on the dashboard once the mail service refuses it', async ({ page, context }) => {
    test.setTimeout(90_000);
    const date = openDays(addDaysToDate(berlinToday(), 4));
    await signInAsAdmin(page, url);
    const type = await createType(page.request, url, 'Benachrichtigung');
    await expect(page.locator('dl > div').filter({ has: page.getByText('Buchungen ohne Praxis-Benachrichtigung', { exact: true }) }).locator('dd')).toHaveText('0');

    const patient = await context.browser()!.newContext();
    const wizard = await patient.newPage();
    const email = `unbenachrichtigt-${stamp}@example.org`;
    await bookInWizard(wizard, type.id, date, '10:40', email, url);
    const reference = (await wizard.getByTestId('booking-reference').textContent())!.trim();
    expect(reference).toMatch(REFERENCE);
    // The answer does not wait for the mail service: the success screen is the usual one.
    await expect(wizard.getByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeVisible();
    await patient.close();
    // The patient's confirmation goes out right after the answer; the practice's notification is refused.
    await expect.poll(async () => (await readOutbox(server.outbox)).filter((m) => m.headers.to === email).length).toBe(1);
    expect((await readOutbox(server.outbox)).filter((m) => m.headers.to === 'praxis@mail.invalid')).toHaveLength(0);
    await expect
      .poll(async () => ((await (await page.request.get(`${url}/api/admin/stats`)).json()) as { unnotified: number }).unnotified)
      .toBe(1);

    // A phone booking beside it is never marked.
    const phone = await page.request.post(`${url}/api/admin/booked-slots`, {
      headers: originOf(url),
      data: { appointment_type_id: type.id, appointment_date: date, appointment_time: '11:00', ...testCaller },
    });
    expect(phone.status()).toBe(201);

    await page.goto(`${url}/admin`);
    const card = page.locator('dl > div').filter({ has: page.getByText('Buchungen ohne Praxis-Benachrichtigung', { exact: true }) });
    await expect(card.locator('dd')).toHaveText('1');
    await expect(card.locator('dd')).toHaveClass(/text-red/);
    expect(((await (await page.request.get(`${url}/api/admin/stats`)).json()) as { unnotified: number }).unnotified).toBe(1);

    await page.goto(`${url}/admin/booked-slots`);
    const rows = page.getByRole('row').filter({ hasText: type.name });
    await expect(rows).toHaveCount(2);
    const marked = rows.filter({ hasText: 'Praxis nicht benachrichtigt' });
    await expect(marked).toHaveCount(1);
    await expect(marked).toContainText(reference);
    await expect(marked).toContainText('10:40');
    await expect(marked).toContainText('Online');
    await expect(rows.filter({ has: page.getByRole('cell', { name: 'Telefon', exact: true }) })).not.toContainText('Praxis nicht benachrichtigt');

    // Cancelled by the practice, it no longer counts.
    await marked.getByRole('button', { name: /Termin .* absagen/ }).click();
    await page.getByRole('dialog', { name: 'Termin absagen' }).getByRole('button', { name: 'Termin absagen' }).click();
    await expect(page.getByText(`Termin ${reference} abgesagt`)).toBeVisible();
    await page.goto(`${url}/admin`);
    await expect(card.locator('dd')).toHaveText('0');
  });
});

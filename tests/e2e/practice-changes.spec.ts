/**
 * Practice-side changes (docs/decisions/021) end to end, through the outbox: staff
 * cancel a German and an English patient's appointment with a message (the
 * email with METHOD:CANCEL; the patient's link then says the practice
 * cancelled, in their language), staff move one with the slot picker (the
 * email with the new time and a higher SEQUENCE), staff book by picking a
 * time, each refusal reason shown in German, and a block over bookings lists
 * them and keeps or cancels them; a date range is one entry.
 *
 * Everything happens on a type this file creates (capacity 1, 08:00–12:00
 * every day, 20 minutes) on dates several days ahead; it goes at the end.
 */
import path from 'node:path';
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday, openDays } from './helpers/clock';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { formatShortDate } from '../../src/lib/dates';
import { readOutbox } from '../helpers/eml';
import { icsOf } from '../helpers/ics';
import { bookingRequest } from '../helpers/patient';
import { hydrated, pickSlot, signInAsAdmin, fillCaller } from './helpers/admin';

const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');
const stamp = Date.now();
const origin = (page: Page) => ({ origin: new URL(page.url()).origin });

interface Type {
  id: string;
  name: string;
}

async function createType(request: APIRequestContext, headers: { origin: string }, name: string): Promise<Type> {
  const res = await request.post('/api/admin/appointment-types', {
    headers,
    data: { name, description: 'Nur für den Test.', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1 },
  });
  expect(res.status()).toBe(201);
  const type = (await res.json()) as Type;
  for (let day = 0; day < 7; day++) {
    const window = await request.post('/api/admin/time-slots', { headers, data: { appointment_type_id: type.id, day_of_week: day, start_time: '08:00', end_time: '12:00' } });
    expect(window.status()).toBe(201);
  }
  return type;
}

/** Books online as a patient; answers the reference and the path of their emailed link. */
async function bookOnline(request: APIRequestContext, typeId: string, date: string, time: string, email: string, language: 'de' | 'en') {
  const res = await request.post('/api/bookings', { data: bookingRequest(typeId, date, time, { email, language }) });
  expect(res.status()).toBe(201);
  const { booking } = (await res.json()) as { booking: { id: string; reference: string } };
  let link = '';
  await expect
    .poll(async () => {
      const mail = (await readOutbox(outbox())).find((m) => m.headers.to === email);
      link = /(https?:\/\/\S+\/termin\/absagen\?token=[A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1] ?? '';
      return link;
    })
    .not.toBe('');
  return { ...booking, path: new URL(link).pathname + new URL(link).search };
}

/** The one email to `to` whose subject starts with `subject`, once it is there. */
async function mailTo(to: string, subject: string) {
  await expect.poll(async () => (await readOutbox(outbox())).some((m) => m.headers.to === to && m.subject.startsWith(subject))).toBe(true);
  return (await readOutbox(outbox())).find((m) => m.headers.to === to && m.subject.startsWith(subject))!;
}

/** The later of two dates. */
const later = (a: string, b: string) => (a > b ? a : b);
// The days the tests book, each an ordinary day (no public holiday: closed online), in this order, within the type's 14 days.
const date = openDays(addDaysToDate(berlinToday(), 3));
const bookDate = openDays(later(addDaysToDate(berlinToday(), 5), addDaysToDate(date, 1)));
const blockDate = openDays(later(addDaysToDate(berlinToday(), 7), addDaysToDate(bookDate, 1)), 2);

test.describe.serial('practice-side changes', () => {
  const moveDate = openDays(addDaysToDate(berlinToday(), 40));
  let type: Type;

  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    type = await createType(page.request, origin(page), `Praxisänderung ${stamp}`);
    await page.close();
  });

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    const slots = (await (await page.request.get('/api/admin/booked-slots')).json()) as Array<{ id: string; appointment_type_id: string; status: string }>;
    for (const s of slots.filter((s) => s.appointment_type_id === type.id && s.status === 'booked')) {
      expect((await page.request.delete(`/api/admin/booked-slots/${s.id}`, { headers: origin(page) })).ok()).toBe(true);
    }
    expect((await page.request.delete(`/api/admin/appointment-types/${type.id}`, { headers: origin(page) })).ok()).toBe(true);
    await page.close();
  });

  test('"Absagen" tells a German and an English patient, with the message and a METHOD:CANCEL .ics; their links say the practice cancelled', async ({ page }) => {
    const german = await bookOnline(page.request, type.id, date, '08:00', `absage-de-${stamp}@example.org`, 'de');
    const english = await bookOnline(page.request, type.id, date, '08:20', `absage-en-${stamp}@example.org`, 'en');
    await signInAsAdmin(page);
    await page.goto('/admin/booked-slots');
    await hydrated(page);
    await page.getByLabel('Nach Terminart suchen').fill(type.name);

    for (const [patient, message] of [
      [german, 'Die Ärztin ist leider erkrankt.'],
      [english, 'The doctor is ill, sorry.'],
    ] as const) {
      const row = page.getByRole('row').filter({ hasText: patient.reference });
      await row.getByRole('button', { name: /Termin .* absagen/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Termin absagen' });
      await expect(dialog).toContainText('erhält eine E-Mail');
      await dialog.getByLabel('Nachricht an den Patienten (optional)').fill(message);
      await dialog.getByRole('button', { name: 'Termin absagen' }).click();
      await expect(page.getByText(`Termin ${patient.reference} abgesagt`)).toBeVisible();
      await expect(row).toContainText('Von der Praxis abgesagt');
      // The email waits in the outbox for a moment, then the row says it went (docs/decisions/035).
      await expect(row).toContainText(/E-Mail (wird gesendet|gesendet|zugestellt)/);
    }

    const de = await mailTo(`absage-de-${stamp}@example.org`, 'Terminabsage der Praxis');
    expect(de.subject).toBe(`Terminabsage der Praxis: ${type.name} am ${formatShortDate(date)} um 08:00`);
    expect(de.text).toContain('Die Ärztin ist leider erkrankt.');
    expect(de.text).toContain(german.reference);
    expect(icsOf(de)).toMatchObject({ method: 'CANCEL', uid: `${german.id}@localhost`, status: 'CANCELLED' });
    const en = await mailTo(`absage-en-${stamp}@example.org`, 'The practice has cancelled your appointment');
    expect(en.text).toContain('The doctor is ill, sorry.');
    expect(icsOf(en)).toMatchObject({ method: 'CANCEL', uid: `${english.id}@localhost` });

    // The patients' links: the practice cancelled, in their language.
    await page.goto(german.path);
    await expect(page.getByRole('heading', { name: 'Termin von der Praxis abgesagt' })).toBeVisible();
    await expect(page.getByText(german.reference)).toBeVisible();
    await page.goto(english.path);
    expect(english.path).toMatch(/^\/en\/termin\/absagen/);
    await expect(page.getByRole('heading', { name: 'Appointment cancelled by the practice' })).toBeVisible();
    await expect(page.getByText(english.reference)).toBeVisible();
  });

  test('"Verschieben" picks a free time beyond the online window; the patient gets the new time with the same UID and a higher SEQUENCE', async ({ page }) => {
    const patient = await bookOnline(page.request, type.id, date, '09:00', `verschieben-${stamp}@example.org`, 'de');
    await signInAsAdmin(page);
    await page.goto('/admin/booked-slots');
    await hydrated(page);
    await page.getByLabel('Nach Terminart suchen').fill(type.name);
    const row = page.getByRole('row').filter({ hasText: patient.reference });
    await row.getByRole('button', { name: /Termin .* verschieben/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Termin verschieben' });
    await pickSlot(dialog, moveDate, '10:40');
    await dialog.getByRole('button', { name: 'Verschieben' }).click();
    await expect(page.getByText(`Termin ${patient.reference} verschoben auf ${formatShortDate(moveDate)}, 10:40 Uhr`)).toBeVisible();
    await expect(row).toContainText(formatShortDate(moveDate));
    await expect(row).toContainText('10:40');

    const mail = await mailTo(`verschieben-${stamp}@example.org`, 'Ihr Termin wurde verlegt');
    expect(mail.text).toContain('Neue Uhrzeit: 10:40 Uhr');
    expect(mail.text).toContain('Bisherige Uhrzeit: 09:00 Uhr');
    expect(icsOf(mail)).toMatchObject({ method: 'REQUEST', uid: `${patient.id}@localhost`, sequence: 1, start: `${moveDate}T10:40` });
    // The patient's link shows the new time.
    await page.goto(patient.path);
    await expect(page.getByText('10:40 Uhr', { exact: true })).toBeVisible();
  });

  test('"Termin eintragen" books a picked time; full, blocked, not-a-start-time and past are refused in German', async ({ page }) => {
    await signInAsAdmin(page);
    const headers = origin(page);
    await page.goto('/admin/booked-slots');
    await hydrated(page);
    const open = async () => {
      await page.getByRole('button', { name: 'Termin eintragen' }).click();
      const dialog = page.getByRole('dialog', { name: 'Termin eintragen' });
      await dialog.getByLabel('Terminart').selectOption({ label: type.name });
      return dialog;
    };
    const refusal = async (time: string, meanwhile: () => Promise<unknown>, text: string) => {
      const dialog = await open();
      await pickSlot(dialog, bookDate, time);
      await fillCaller(dialog);
      await meanwhile();
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog.getByRole('alert')).toHaveText(text);
      // The picker asked the server again: the refused time is gone.
      await expect(dialog.getByRole('group', { name: 'Uhrzeit' }).getByRole('button', { name: `${time} Uhr`, exact: true })).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    };

    // Someone else was quicker (online).
    await refusal('08:00', () => page.request.post('/api/bookings', { data: bookingRequest(type.id, bookDate, '08:00', { email: `schneller-${stamp}@example.org` }) }), 'Diese Zeit ist bereits ausgebucht.');
    // A colleague blocked the morning meanwhile.
    let blockId = '';
    await refusal(
      '08:20',
      async () => {
        const res = await page.request.post('/api/admin/blocked-dates', { headers, data: { date: bookDate, start_time: '08:20', end_time: '08:40', appointment_type_id: type.id, bookings: 'keep' } });
        expect(res.status()).toBe(201);
        blockId = (((await res.json()) as { blocked?: Array<{ id: string }>; id?: string }).blocked?.[0]?.id ?? ((await res.json()) as { id: string }).id)!;
      },
      'Diese Zeit ist gesperrt.',
    );
    expect((await page.request.delete(`/api/admin/blocked-dates/${blockId}`, { headers })).status()).toBe(204);
    // The windows changed to start at 08:10: 08:40 is no start time any more.
    await refusal(
      '08:40',
      async () => {
        const windows = (await (await page.request.get('/api/admin/time-slots')).json()) as Array<{ id: string; appointment_type_id: string; day_of_week: number }>;
        for (const w of windows.filter((w) => w.appointment_type_id === type.id)) {
          expect((await page.request.put(`/api/admin/time-slots/${w.id}`, { headers, data: { appointment_type_id: type.id, day_of_week: w.day_of_week, start_time: '08:10', end_time: '12:10' } })).status()).toBe(200);
        }
      },
      'Zu dieser Uhrzeit beginnt kein Termin dieser Terminart.',
    );
    // A dialog left open past its time: the time has gone by when it is saved (the request as the stale dialog would send it).
    await page.route('**/api/admin/booked-slots', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const body = route.request().postDataJSON() as Record<string, string>;
      await route.continue({ postData: JSON.stringify({ ...body, appointment_date: addDaysToDate(berlinToday(), -1) }) });
    });
    const stale = await open();
    await pickSlot(stale, bookDate, '09:10');
    await fillCaller(stale);
    await stale.getByRole('button', { name: 'Speichern' }).click();
    await expect(stale.getByRole('alert')).toHaveText('Diese Zeit liegt in der Vergangenheit.');
    await stale.getByRole('button', { name: 'Abbrechen' }).click();
    await page.unroute('**/api/admin/booked-slots');

    // And a picked free time is booked.
    const dialog = await open();
    await pickSlot(dialog, bookDate, '09:30');
    await fillCaller(dialog);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText(/^Termin eingetragen \(Buchungsnummer [A-Z2-9]{6}\)$/)).toBeVisible();
  });

  test('a block over bookings lists them first: "nur neue Buchungen sperren" keeps them, "sperren und absagen" cancels and tells the patients; a range shows as one entry', async ({ page }) => {
    // The type's windows start at 08:10 since the previous test: its times are 08:10, 08:30, …
    const kept = await bookOnline(page.request, type.id, blockDate, '09:50', `sperre-bleibt-${stamp}@example.org`, 'de');
    await signInAsAdmin(page);
    await page.goto('/admin/blocked-dates');
    await hydrated(page);
    const block = async (date: string, end: string | null, start: string, stop: string) => {
      await page.getByRole('button', { name: 'Tag sperren' }).click();
      const dialog = page.getByRole('dialog', { name: 'Tag sperren' });
      await dialog.getByLabel('Datum (erster Tag)').fill(date);
      if (end) await dialog.getByLabel('Bis einschließlich (optional)').fill(end);
      await dialog.getByLabel('Von (optional)').fill(start);
      await dialog.getByLabel('Bis (optional)', { exact: true }).fill(stop);
      await dialog.getByLabel('Terminart').selectOption({ label: type.name });
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      return dialog;
    };

    // Keep: listed first, then saved; the booking stays.
    let dialog = await block(blockDate, null, '09:40', '10:30');
    await expect(dialog.getByRole('alert')).toContainText('bereits ein Termin gebucht');
    await expect(dialog.getByRole('list', { name: 'Betroffene Termine' })).toContainText(kept.reference);
    await dialog.getByRole('button', { name: 'Nur neue Buchungen sperren (Termine bleiben bestehen)' }).click();
    await expect(page.getByText('Tag gesperrt')).toBeVisible();
    await expect(dialog).toBeHidden();
    const slots = async () => (await (await page.request.get('/api/admin/booked-slots')).json()) as Array<{ reference: string; status: string }>;
    expect((await slots()).find((s) => s.reference === kept.reference)?.status).toBe('booked');

    // Cancel: a second booking under a range of three days is cancelled and its patient told.
    const cancelled = await bookOnline(page.request, type.id, addDaysToDate(blockDate, 1), '10:50', `sperre-absage-${stamp}@example.org`, 'de');
    dialog = await block(addDaysToDate(blockDate, 1), addDaysToDate(blockDate, 3), '10:40', '12:00');
    await expect(dialog.getByRole('list', { name: 'Betroffene Termine' })).toContainText(cancelled.reference);
    await dialog.getByRole('button', { name: 'Sperren und diese Termine absagen (Patienten werden benachrichtigt)' }).click();
    await expect(dialog.getByRole('status')).toContainText('1 Termin wurde abgesagt');
    await expect(dialog.getByRole('status')).toContainText(cancelled.reference);
    await expect(dialog.getByRole('status')).toContainText('Patient wird per E-Mail informiert');
    await dialog.getByRole('button', { name: 'Fertig' }).click();
    expect((await slots()).find((s) => s.reference === cancelled.reference)?.status).toBe('cancelled_by_practice');
    const mail = await mailTo(`sperre-absage-${stamp}@example.org`, 'Terminabsage der Praxis');
    expect(icsOf(mail)).toMatchObject({ method: 'CANCEL', uid: `${cancelled.id}@localhost` });

    // The range is one entry with its dates, removed in one step.
    const entry = page.getByRole('listitem').filter({ hasText: `${formatShortDate(addDaysToDate(blockDate, 1))} – ${formatShortDate(addDaysToDate(blockDate, 3))} (3 Tage)` });
    await expect(entry).toHaveCount(1);
    await entry.getByRole('button', { name: /entfernen/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sperrung entfernen' }).click();
    await expect(page.getByText('Sperrung entfernt')).toBeVisible();
    await expect(entry).toHaveCount(0);
  });
});

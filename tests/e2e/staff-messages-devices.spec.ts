/**
 * Reception's details (docs/decisions/041-staff-messages-devices-printouts.md)
 * as staff use them, found by role and label, axe clean:
 * - a message naming the request's medication asks first (an alert dialog
 *   saying why), and "Nachricht bearbeiten" leads back to it;
 * - "Rückrufe heute" at 1280 px and on a 360 px phone (stacked cards): only
 *   the day's call-backs, Vormittag before Nachmittag, printed under its
 *   own title (the browser's clock is set to the call-back day);
 * - "Patient erreicht" says who and when, also after a reload, in the
 *   booked list, the day list and the week view;
 * - "Angemeldete Geräte": a session named by its owner, ending one asks
 *   first, and the ended device's sign-in page says why.
 */
import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday } from './helpers/clock';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { callbackDays } from '../../src/lib/callback-days';
import { ADMIN, hydrated, signIn, signInAsAdmin } from './helpers/admin';
import { expectNoAxeViolations } from './helpers/axe';
import { expectFitsScreen, PHONE } from './helpers/phone';
import { printedPages } from './helpers/print';

const run = Date.now().toString(36);
const origin = (page: Page) => ({ origin: new URL(page.url()).origin });
const germanDate = (iso: string) => iso.split('-').reverse().join('.');

async function ask(page: Page, body: Record<string, unknown>): Promise<string> {
  const res = await page.request.post('/api/requests', {
    data: { first_name: 'Erika', birth_date: '1964-08-12', consent: true, language: 'de', email: `details-${run}-${Math.random().toString(36).slice(2)}@example.org`, ...body },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { reference: string }).reference;
}

test('a message naming the medication asks first and says why; "Nachricht bearbeiten" leads back, a plain message is sent', async ({ page }) => {
  const reference = await ask(page, { kind: 'prescription', last_name: `Nachricht${run}`, insurance: 'statutory', delivery: 'pickup', medications: [{ name: 'Metoprolol', strength: '47,5 mg' }] });
  await signInAsAdmin(page);
  await page.goto('/admin/anfragen');
  await hydrated(page);
  await page.getByRole('button', { name: `Anfrage ${reference} öffnen` }).click();
  const dialog = page.getByRole('dialog', { name: `Folgerezept ${reference}` });
  const message = dialog.getByLabel('Nachricht an den Patienten');
  await message.fill('Ihr Metoprolol liegt ab morgen bereit.');
  await dialog.getByRole('button', { name: 'Erledigt' }).click();
  const question = page.getByRole('alertdialog', { name: 'Nachricht nennt Einzelheiten' });
  await expect(question).toContainText('Die Nachricht nennt ein Medikament der Anfrage.');
  await expect(question).toContainText('E-Mail ist nicht vertraulich');
  await expectNoAxeViolations(page, 'the message check');
  await question.getByRole('button', { name: 'Nachricht bearbeiten' }).click();
  await expect(question).toBeHidden();
  await expect(message).toBeFocused();
  await message.fill('Ihr Rezept liegt ab morgen bereit.');
  await dialog.getByRole('button', { name: 'Erledigt' }).click();
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Status: erledigt' })).toBeVisible();
});

/** A page whose browser clock reads `date` at 09:30 Berlin (winter or summer: a time of that day either way). */
async function pageOn(browser: Browser, date: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.clock.setFixedTime(new Date(`${date}T08:30:00Z`));
  return page;
}

for (const viewport of [
  { width: 1280, height: 900 },
  { ...PHONE },
]) {
  test(`"Rückrufe heute" at ${viewport.width} px: the day's call-backs only, Vormittag first; printed under its own title`, async ({ browser, page }) => {
    const [day, nextDay] = callbackDays(berlinToday());
    const afternoon = await ask(page, { kind: 'callback', last_name: `Rueckruf${run}${viewport.width}`, phone: '0211 5550123', callback_date: day, daypart: 'afternoon', topic: 'Befund' });
    const morning = await ask(page, { kind: 'callback', last_name: `Rueckruf${run}${viewport.width}`, phone: '0211 5550124', callback_date: day, daypart: 'morning', topic: 'Befund' });
    const later = await ask(page, { kind: 'callback', last_name: `Rueckruf${run}${viewport.width}`, phone: '0211 5550125', callback_date: nextDay, daypart: 'morning', topic: 'Befund' });

    const staff = await pageOn(browser, day!, viewport);
    await signInAsAdmin(staff);
    await staff.goto('/admin/anfragen');
    await hydrated(staff);
    const ours = staff.getByRole('row').filter({ hasText: `Rueckruf${run}${viewport.width}` });
    await expect(ours).toHaveCount(3);
    // The columns, labelled on the phone's cards too.
    const laterRow = ours.filter({ hasText: later });
    await expect(laterRow.getByRole('cell', { name: new RegExp(germanDate(nextDay!)) })).toHaveAttribute('data-label', 'Rückruf am');
    await expect(laterRow.getByRole('cell', { name: /Vormittag/ })).toHaveAttribute('data-label', 'Tageszeit');

    await staff.getByRole('button', { name: 'Rückrufe heute' }).click();
    await expect(staff.getByRole('button', { name: 'Rückrufe heute' })).toHaveAttribute('aria-pressed', 'true');
    await expect(ours).toHaveCount(2);
    await expect(ours.nth(0)).toContainText(morning);
    await expect(ours.nth(1)).toContainText(afternoon);
    await expect(staff).toHaveURL(/ansicht=rueckrufe-heute/);
    if (viewport.width < 640) await expectFitsScreen(staff, '"Rückrufe heute" on a phone');
    await expectNoAxeViolations(staff, `"Rückrufe heute" at ${viewport.width} px`);

    const { pages } = await printedPages(staff);
    expect(pages[0]).toContain(`Rückrufe heute – ${germanDate(day!)}`);
    const all = pages.join(' ');
    expect(all.indexOf(morning)).toBeLessThan(all.indexOf(afternoon));
    expect(all).not.toContain(later);
    await staff.context().close();
  });
}

test.describe.serial('a call owed, and signed-in devices', () => {
  let typeId = '';
  const bookingIds: string[] = [];
  const day = addDaysToDate(berlinToday(), 9);

  test.afterAll(async ({ browser }) => {
    const page = await browser.newPage();
    await signInAsAdmin(page);
    for (const id of bookingIds) await page.request.delete(`/api/admin/booked-slots/${id}`, { headers: origin(page) });
    if (typeId) await page.request.delete(`/api/admin/appointment-types/${typeId}`, { headers: origin(page) });
    await page.close();
  });

  test('"Patient erreicht" says who marked it and when, after a reload too, in the booked list, the day list and the week view', async ({ page }) => {
    await signInAsAdmin(page);
    const type = await page.request.post('/api/admin/appointment-types', {
      headers: origin(page),
      data: { name: `Erreicht ${run}`, description: 'Nur für den Test.', max_advance_days: 30, slot_duration_minutes: 20, max_slots_per_time: 1 },
    });
    typeId = ((await type.json()) as { id: string }).id;
    await page.request.post('/api/admin/time-slots', { headers: origin(page), data: { appointment_type_id: typeId, days_of_week: [1, 2, 3, 4, 5, 6, 7], start_time: '08:00', end_time: '12:00' } });
    // A phone booking without an email, cancelled by the practice: nobody told, staff call.
    const booked = await page.request.post('/api/admin/booked-slots', {
      headers: origin(page),
      data: { appointment_type_id: typeId, appointment_date: day, appointment_time: '10:00', first_name: 'Jürgen', last_name: `Anruf${run}`, phone: '0211 4445566' },
    });
    const booking = (await booked.json()) as { id: string; reference: string };
    bookingIds.push(booking.id);
    expect((await page.request.post(`/api/admin/booked-slots/${booking.id}/cancel`, { headers: origin(page), data: {} })).status()).toBe(200);

    await page.goto(`/admin/day-list?datum=${day}`);
    await hydrated(page);
    const row = page.getByRole('row').filter({ hasText: booking.reference });
    await expect(row).toContainText('keine E-Mail – bitte anrufen');
    await row.getByRole('button', { name: `${booking.reference}: Patient erreicht` }).click();
    const mark = new RegExp(`Patient erreicht – ${ADMIN.email.replace(/[.]/g, '\\.')}, \\d{2}\\.\\d{2}\\.\\d{4}, \\d{2}:\\d{2}`);
    await expect(row).toContainText(mark);
    await page.reload();
    await hydrated(page);
    await expect(page.getByRole('row').filter({ hasText: booking.reference })).toContainText(mark);
    await page.goto(`/admin/woche?datum=${day}`);
    await hydrated(page);
    await expect(page.getByRole('row').filter({ hasText: booking.reference })).toContainText(mark);
    await page.goto('/admin/booked-slots');
    await hydrated(page);
    await page.getByLabel('Datum filtern').fill(day);
    await expect(page.getByRole('row').filter({ hasText: booking.reference })).toContainText(mark);
    await expectNoAxeViolations(page, 'booked list with a patient reached');
  });

  test('"Angemeldete Geräte": a session named by its owner, ending one asks first, and the ended device says why', async ({ browser, page }) => {
    await signInAsAdmin(page);
    const colleague = { email: `geraete-${run}@praxis.example`, password: `geraete-passwort-${run}` };
    expect((await page.request.post('/api/admin/users', { headers: origin(page), data: colleague })).status()).toBe(201);
    const phoneContext = await browser.newContext({
      viewport: PHONE,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    });
    const phone = await phoneContext.newPage();
    const pcContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const pc = await pcContext.newPage();
    for (const device of [phone, pc]) {
      await device.goto('/auth');
      await signIn(device, colleague.email, colleague.password);
      await expect(device).toHaveURL(/\/admin$/);
    }

    await pc.goto('/admin/konto');
    await hydrated(pc);
    const devices = pc.getByRole('region', { name: 'Angemeldete Geräte' });
    await expect(devices.getByRole('listitem')).toHaveCount(2);
    await devices.getByRole('button', { name: /^Benennen: .*\(Dieses Gerät\)$/ }).click();
    const rename = pc.getByRole('dialog', { name: 'Sitzung benennen' });
    await rename.getByLabel('Name').fill('Empfang PC 2');
    await rename.getByRole('button', { name: 'Speichern' }).click();
    await expect(devices.getByRole('listitem').filter({ hasText: 'Dieses Gerät' })).toContainText('Empfang PC 2');
    await expect(devices.getByRole('listitem').filter({ hasText: 'Empfang PC 2' })).toContainText(/Angemeldet seit/);
    await expectNoAxeViolations(pc, 'devices with a named session');

    // Ending the phone's session asks first; "Abbrechen" keeps it.
    const end = devices.getByRole('button', { name: 'Abmelden: Safari 17 auf iOS 17.1' });
    await end.click();
    const ask = pc.getByRole('alertdialog', { name: 'Sitzung beenden?' });
    await expect(ask).toContainText('Safari 17 auf iOS 17.1 wird abgemeldet.');
    await expectNoAxeViolations(pc, 'ending a session asks first');
    await ask.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(devices.getByRole('listitem')).toHaveCount(2);
    await end.click();
    await pc.getByRole('alertdialog', { name: 'Sitzung beenden?' }).getByRole('button', { name: 'Abmelden' }).click();
    await expect(devices.getByRole('listitem')).toHaveCount(1);

    // The phone's next check lands on the sign-in page, which says why.
    await phone.reload();
    await expect(phone).toHaveURL(/\/auth\?(.*&)?beendet=1/);
    await expect(phone.getByRole('status')).toContainText('Diese Anmeldung wurde beendet (auf einem anderen Gerät oder von einer Administratorin).');
    await expectNoAxeViolations(phone, 'the sign-in page of an ended session');
    // A stranger's /auth says nothing of the kind.
    const stranger = await browser.newPage();
    await stranger.goto('/auth');
    await hydrated(stranger);
    await expect(stranger.getByText(/Diese Anmeldung wurde beendet/)).toHaveCount(0);
    await stranger.close();
    await phoneContext.close();
    await pcContext.close();
  });
});

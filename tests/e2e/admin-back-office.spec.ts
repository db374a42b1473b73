/**
 * The back office end to end: every change made there shows on the public
 * booking wizard at once (no rebuild), the pages and dialogs pass axe, and
 * dialogs work with the keyboard. Everything here happens on a type this
 * file creates and deletes again, so the other specs see the seed data.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinToday, openDays } from './helpers/clock';
import { addDaysToDate, weekdayOf } from '../../src/lib/berlin-time';
import { formatLongDate, formatShortDate } from '../../src/lib/dates';
import { needsReorder } from '../../src/lib/inventory';
import { expectNoAxeViolations } from './helpers/axe';
import { signInAsAdmin } from './helpers/admin';
import { showMonthOf } from './helpers/calendar';
import { bookingRequest } from '../helpers/patient';

const TYPE = 'E2E Sprechstunde';
const WEEKDAYS = ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'];

const axe = expectNoAxeViolations;

/** The wizard in a second tab: choose the type, wait for its first date to be chosen. */
async function openWizard(wizard: Page) {
  await wizard.goto('/termin');
  await wizard.getByRole('button', { name: `Auswählen: ${TYPE}` }).click();
  await expect(wizard.getByRole('heading', { name: 'Datum und Uhrzeit wählen' })).toBeVisible();
}

const timeButton = (wizard: Page, time: string) =>
  wizard.getByRole('group', { name: 'Uhrzeit wählen' }).getByRole('button', { name: `${time} Uhr`, exact: true });

/** The calendar button of a date, turning to its month first. */
async function dayButton(wizard: Page, date: string) {
  await showMonthOf(wizard, date);
  return wizard.getByRole('button', { name: new RegExp(formatLongDate(date, 'de')) });
}

const bookingBody = (typeId: string, date: string, time: string) => bookingRequest(typeId, date, time, { email: 'e2e-admin@example.org' });

test.describe.serial('admin back office', () => {
  // Tomorrow, unless it or the day after is a public holiday (closed online): then the next two ordinary days.
  const tomorrow = openDays(addDaysToDate(berlinToday(), 1), 2);
  const nextWeek = addDaysToDate(tomorrow, 7);

  test('dashboard: five stat cards, the low-stock card red above 0, quick links', async ({ page }) => {
    await signInAsAdmin(page);
    const stats = await (await page.request.get('/api/admin/stats')).json();
    for (const [label, key] of [
      ['Gebuchte Termine gesamt', 'bookedTotal'],
      ['Termine heute', 'bookedToday'],
      ['Terminarten', 'appointmentTypes'],
      ['Gesperrte Tage', 'blockedDates'],
      ['Artikel mit niedrigem Bestand', 'lowStock'],
    ] as const) {
      const card = page.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) });
      await expect(card.locator('dd')).toHaveText(String(stats[key]));
    }
    expect(stats.lowStock).toBeGreaterThan(0);
    await expect(page.locator('dl > div').filter({ hasText: 'Artikel mit niedrigem Bestand' }).locator('dd')).toHaveClass(/text-red/);
    await expect(page.locator('dl > div').filter({ hasText: 'Terminarten' }).locator('dd')).not.toHaveClass(/text-red/);
    const quick = page.getByRole('main').getByRole('list').filter({ has: page.getByRole('link', { name: 'Zeitfenster' }) });
    await expect(quick.getByRole('link', { name: 'Terminarten' })).toHaveAttribute('href', '/admin/appointment-types');
    await expect(quick.getByRole('link', { name: 'Zeitfenster' })).toHaveAttribute('href', '/admin/time-slots');
    await expect(quick.getByRole('link', { name: 'Wochenansicht' })).toHaveAttribute('href', '/admin/woche');
    await expect(quick.getByRole('link', { name: 'Inventarverwaltung' })).toHaveAttribute('href', '/admin/inventory');
  });

  test('a new type, its window, a blocked date and a released slot all show on /termin at once', async ({ page, context }) => {
    test.setTimeout(120_000);
    await signInAsAdmin(page);
    const wizard = await context.newPage();

    // 1. A new consultation type: the form's defaults, a validation message, then saved.
    await page.goto('/admin/appointment-types');
    await page.getByRole('button', { name: 'Neue Terminart' }).click();
    const dialog = page.getByRole('dialog', { name: 'Neue Terminart' });
    await expect(dialog.getByLabel(/Buchbar bis/)).toHaveValue('14');
    await expect(dialog.getByLabel('Dauer (Minuten)')).toHaveValue('20');
    await expect(dialog.getByLabel('Max. Termine pro Uhrzeit')).toHaveValue('1');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Bitte geben Sie einen Namen ein.')).toBeVisible();
    await expect(dialog.getByText('Bitte geben Sie eine Beschreibung ein.')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(TYPE);
    await dialog.getByRole('textbox', { name: 'Beschreibung', exact: true }).fill('Nur für den Test.');
    await dialog.getByLabel('Dauer (Minuten)').fill('22');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Die Dauer muss ein Vielfaches von 5 Minuten sein.')).toBeVisible();
    await dialog.getByLabel('Dauer (Minuten)').fill('20');
    await dialog.getByLabel('Preis in Euro (optional)').fill('25');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Terminart erstellt')).toBeVisible();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: TYPE }) });
    await expect(card).toContainText('14 Tage im Voraus');
    await expect(card).toContainText('20 Minuten');
    await expect(card).toContainText('25,00 €');

    // Without a weekly window the type is not offered to patients yet, and its card says so.
    await expect(card).toContainText('Für Patienten unsichtbar: noch kein Zeitfenster');
    await wizard.goto('/termin');
    await expect(wizard.getByRole('button', { name: 'Auswählen: Check-up' })).toBeVisible();
    await expect(wizard.getByRole('button', { name: `Auswählen: ${TYPE}` })).toHaveCount(0);

    // 2. One window for tomorrow's weekday and the next one, in one step: their times appear in the wizard.
    const dayAfter = addDaysToDate(tomorrow, 1);
    await page.goto('/admin/time-slots');
    await page.getByRole('button', { name: 'Neues Zeitfenster' }).click();
    const windowDialog = page.getByRole('dialog', { name: 'Neues Zeitfenster' });
    const weekdays = windowDialog.getByRole('group', { name: /Wochentage/ });
    await expect(weekdays.getByRole('checkbox', { name: 'Montag' })).toBeChecked();
    await expect(windowDialog.getByLabel('Startzeit')).toHaveValue('09:00');
    await expect(windowDialog.getByLabel('Endzeit')).toHaveValue('17:00');
    await windowDialog.getByLabel('Terminart').selectOption({ label: TYPE });
    await weekdays.getByRole('checkbox', { name: 'Montag' }).uncheck();
    for (const date of [tomorrow, dayAfter]) await weekdays.getByRole('checkbox', { name: WEEKDAYS[weekdayOf(date)]! }).check();
    await windowDialog.getByLabel('Startzeit').fill('11:00');
    await windowDialog.getByLabel('Endzeit').fill('10:00');
    await windowDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Ungültige Zeiten')).toBeVisible();
    await expect(page.getByText('Die Startzeit muss vor der Endzeit liegen.').first()).toBeVisible();
    await windowDialog.getByLabel('Startzeit').fill('10:00');
    await windowDialog.getByLabel('Endzeit').fill('11:00');
    await windowDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('2 Zeitfenster erstellt')).toBeVisible();
    const section = page.getByRole('region', { name: TYPE });
    for (const date of [tomorrow, dayAfter]) {
      await expect(section.getByRole('definition').filter({ has: page.getByText('10:00–11:00 Uhr') }).first()).toBeVisible();
      await expect(section).toContainText(WEEKDAYS[weekdayOf(date)]!);
    }
    await expect(section.getByText('10:00–11:00 Uhr')).toHaveCount(2);

    await openWizard(wizard);
    await expect(await dayButton(wizard, dayAfter)).toBeEnabled();
    await expect(timeButton(wizard, '10:00')).toBeVisible();
    await expect(timeButton(wizard, '10:40')).toBeVisible();
    await expect(await dayButton(wizard, tomorrow)).toBeEnabled();

    // 3. A booked slot disappears from the wizard; released in the back office, it is bookable again.
    const types = (await (await page.request.get('/api/appointment-types')).json()) as Array<{ id: string; name: string }>;
    const typeId = types.find((t) => t.name === TYPE)!.id;
    const booking = await page.request.post('/api/bookings', { data: bookingBody(typeId, tomorrow, '10:00') });
    expect(booking.status()).toBe(201);
    await openWizard(wizard);
    await expect(timeButton(wizard, '10:20')).toBeVisible();
    await expect(timeButton(wizard, '10:00')).toHaveCount(0);

    await page.goto('/admin/booked-slots');
    await page.getByLabel('Nach Terminart suchen').fill('e2e sprech');
    await expect(page.getByRole('row')).toHaveCount(2);
    const row = page.getByRole('row').filter({ hasText: TYPE });
    await expect(row).toContainText(formatShortDate(tomorrow));
    await expect(row).toContainText('10:00');
    // Staff lists name the patient (docs/decisions/025): last name first, in the Patient column.
    await expect(row).toContainText('Mustermann, Erika');
    await page.getByLabel('Datum filtern').fill(tomorrow);
    const counters = page.locator('dl').first();
    await expect(counters.locator('div').filter({ hasText: 'Angezeigte Termine' }).locator('dd')).toHaveText('1');
    await expect(counters.locator('div').filter({ hasText: 'Verschiedene Tage' }).locator('dd')).toHaveText('1');
    await expect(counters.locator('div').filter({ hasText: /^Heute/ }).locator('dd')).toHaveText('0');
    await row.getByRole('button', { name: /Termin .* absagen/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Termin absagen' });
    await expect(confirm).toContainText('wieder buchbar');
    await confirm.getByRole('button', { name: 'Termin absagen' }).click();
    await expect(page.getByText(/^Termin [A-Z2-9]{6} abgesagt$/)).toBeVisible();
    // It stays in the list, struck through, until its date has passed; the time is free again.
    await expect(row).toContainText('Von der Praxis abgesagt');
    await expect(row.getByRole('button', { name: /absagen/ })).toHaveCount(0);

    await openWizard(wizard);
    await expect(timeButton(wizard, '10:00')).toBeVisible();

    // 4. A blocked date (for this type) disables that day in the calendar.
    await page.goto('/admin/blocked-dates');
    await page.getByRole('button', { name: 'Tag sperren' }).click();
    const blockDialog = page.getByRole('dialog', { name: 'Tag sperren' });
    await expect(blockDialog.getByLabel('Terminart')).toHaveValue('__ALL__');
    await blockDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(blockDialog.getByText('Bitte wählen Sie ein Datum.')).toBeVisible();
    await blockDialog.getByLabel('Datum').fill(nextWeek);
    await blockDialog.getByLabel('Terminart').selectOption({ label: TYPE });
    await blockDialog.getByLabel('Grund (optional)').fill('Fortbildung');
    await blockDialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Tag gesperrt')).toBeVisible();
    const blockedRow = page.getByRole('listitem').filter({ hasText: formatShortDate(nextWeek) }).filter({ hasText: TYPE });
    await expect(blockedRow).toContainText('Gesperrt');
    await expect(blockedRow).toContainText('Fortbildung');
    await blockedRow.getByRole('button', { name: /bearbeiten/ }).click();
    const editBlock = page.getByRole('dialog', { name: 'Gesperrten Tag bearbeiten' });
    await editBlock.getByLabel('Grund (optional)').fill('Praxisurlaub');
    await editBlock.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Sperrung aktualisiert')).toBeVisible();
    await expect(blockedRow).toContainText('Praxisurlaub');

    await openWizard(wizard);
    await expect(await dayButton(wizard, nextWeek)).toBeDisabled();

    // 5. With a future booking the type cannot be deleted; released, it can, and leaves the wizard.
    const again = await page.request.post('/api/bookings', { data: bookingBody(typeId, tomorrow, '10:20') });
    expect(again.status()).toBe(201);
    await page.goto('/admin/appointment-types');
    await card.getByRole('button', { name: `${TYPE} löschen` }).click();
    await page.getByRole('alertdialog', { name: 'Terminart löschen?' }).getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByText('Fehler beim Löschen')).toBeVisible();
    await expect(page.getByText(/^Diese Terminart hat noch zukünftige gebuchte Termine/)).toBeVisible();
    await expect(card).toBeVisible();
    const release = await page.request.delete(`/api/admin/booked-slots/${(await again.json()).booking.id}`);
    expect(release.status()).toBe(200);
    await card.getByRole('button', { name: `${TYPE} löschen` }).click();
    await page.getByRole('alertdialog', { name: 'Terminart löschen?' }).getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByText('Terminart gelöscht')).toBeVisible();
    await expect(card).toBeHidden();
    await wizard.goto('/termin');
    await expect(wizard.getByRole('button', { name: 'Auswählen: Check-up' })).toBeVisible();
    await expect(wizard.getByRole('button', { name: `Auswählen: ${TYPE}` })).toHaveCount(0);
  });

  test("blocked dates: grouped by month, a date before today refused, '__ALL__' means every type, removal asks first", async ({ page }) => {
    await signInAsAdmin(page);
    const past = addDaysToDate(berlinToday(), -40);
    const later = addDaysToDate(berlinToday(), 40);
    await page.goto('/admin/blocked-dates');
    await page.getByRole('button', { name: 'Tag sperren' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tag sperren' });
    await dialog.getByLabel('Datum').fill(past);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    // A block never reaches back over appointments that have been (docs/decisions/030).
    await expect(dialog.getByText('Eine Sperrung kann frühestens heute beginnen.')).toBeVisible();
    await dialog.getByLabel('Datum').fill(later);
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Tag gesperrt')).toBeVisible();
    const month = new Intl.DateTimeFormat('de-DE', { month: 'long', year: 'numeric' }).format(new Date(`${later}T12:00:00`));
    const group = page.getByRole('region', { name: month });
    const row = group.getByRole('listitem').filter({ hasText: formatShortDate(later) });
    await expect(row).toContainText('Gesperrt');
    await expect(row).toContainText('Alle Terminarten');
    await row.getByRole('button', { name: /entfernen/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Sperrung entfernen?' });
    await confirm.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: /entfernen/ }).click();
    await confirm.getByRole('button', { name: 'Sperrung entfernen' }).click();
    await expect(page.getByText('Sperrung entfernt')).toBeVisible();
    await expect(row).toBeHidden();
  });

  test('inventory: reorder warning, filters with counts, highlighted rows, is_ordered saves at once, create/edit/delete', async ({ page }) => {
    await signInAsAdmin(page);
    const items = (await (await page.request.get('/api/admin/inventory')).json()) as Array<Parameters<typeof needsReorder>[0] & { name: string }>;
    const reorder = items.filter(needsReorder);
    expect(reorder.length).toBeGreaterThan(0);
    await page.goto('/admin/inventory');
    await expect(page.getByText(`${reorder.length} Artikel benötigen Nachbestellung!`)).toBeVisible();
    const low = items.filter((i) => i.current_stock <= i.minimum_stock).length;
    await expect(page.getByRole('button', { name: `Niedriger Bestand (${low})` })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Läuft bald ab \(\d+\)$/ })).toBeVisible();
    const first = reorder[0]!;
    const rowOf = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
    await expect(rowOf(first.name)).toHaveAttribute('data-needs-reorder', 'true');
    await expect(rowOf(first.name)).toHaveClass(/bg-red-50/);

    await page.getByRole('button', { name: `Niedriger Bestand (${low})` }).click();
    await expect(page.getByRole('button', { name: `Niedriger Bestand (${low})` })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('tbody tr')).toHaveCount(low);
    await page.getByRole('button', { name: /^Alle/ }).click();

    // The checkbox saves at once (PATCH): the warning shrinks and a reload keeps it.
    await rowOf(first.name).getByRole('checkbox', { name: `${first.name} bestellt` }).check();
    await expect(page.getByText('Erfolgreich aktualisiert')).toBeVisible();
    const remaining = reorder.length - 1;
    if (remaining > 0) await expect(page.getByText(`${remaining} Artikel benötigen Nachbestellung!`)).toBeVisible();
    else await expect(page.getByText(/Artikel benötigen Nachbestellung!/)).toHaveCount(0);
    await page.reload();
    await expect(rowOf(first.name).getByRole('checkbox')).toBeChecked();
    await expect(rowOf(first.name)).not.toHaveAttribute('data-needs-reorder');
    await rowOf(first.name).getByRole('checkbox').uncheck();
    await expect(page.getByText('Erfolgreich aktualisiert').first()).toBeVisible();

    await page.getByRole('button', { name: 'Neuer Artikel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Neuer Artikel' });
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Bitte geben Sie einen Namen ein.')).toBeVisible();
    await expect(dialog.getByText('Bitte geben Sie einen Lieferanten ein.')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Aaa Testpflaster');
    await dialog.getByLabel('Lieferant').fill('Testlieferant');
    await dialog.getByLabel('Aktueller Bestand').fill('');
    await dialog.getByLabel('Mindestbestand').fill('4');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Artikel erfolgreich hinzugefügt')).toBeVisible();
    const created = rowOf('Aaa Testpflaster');
    await expect(created).toContainText('0 / 4');
    await expect(created).toHaveAttribute('data-needs-reorder', 'true');

    await created.getByRole('button', { name: 'Aaa Testpflaster bearbeiten' }).click();
    const edit = page.getByRole('dialog', { name: 'Artikel bearbeiten' });
    await edit.getByLabel('Aktueller Bestand').fill('9');
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Erfolgreich aktualisiert').first()).toBeVisible();
    await expect(created).toContainText('9 / 4');
    await expect(created).not.toHaveAttribute('data-needs-reorder');

    await created.getByRole('button', { name: 'Aaa Testpflaster löschen' }).click();
    await page.getByRole('alertdialog', { name: 'Artikel löschen?' }).getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByText('Artikel gelöscht')).toBeVisible();
    await expect(created).toBeHidden();
  });

  test('dialogs with the keyboard: focus moves in and stays, Escape closes, focus returns to the opener', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/admin/appointment-types');
    const opener = page.getByRole('button', { name: 'Neue Terminart' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Neue Terminart' });
    await expect(dialog).toBeVisible();
    // Modal: the page behind is hidden from assistive technology while it is open.
    await expect(page.getByRole('button', { name: 'Abmelden' })).toHaveCount(0);
    await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(page.getByRole('button', { name: 'Abmelden' })).toHaveCount(1);

    const remove = page.getByRole('button', { name: 'Check-up löschen' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Terminart löschen?' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Abbrechen' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(remove).toBeFocused();
    await expect(page.getByRole('heading', { name: 'Check-up' })).toBeVisible();
  });

  test('axe finds no violations on any admin page or open dialog', async ({ page }) => {
    test.setTimeout(90_000);
    await signInAsAdmin(page);
    await page.getByText('Gebuchte Termine gesamt').waitFor();
    await axe(page, 'dashboard');

    await page.goto('/admin/appointment-types');
    await page.getByRole('heading', { name: 'Check-up' }).waitFor();
    await axe(page, 'appointment types');
    await page.getByRole('button', { name: 'Neue Terminart' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('Bitte geben Sie einen Namen ein.').waitFor();
    await axe(page, 'type dialog with errors');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Check-up löschen' }).click();
    await page.getByRole('alertdialog').waitFor();
    await axe(page, 'delete confirmation');
    await page.keyboard.press('Escape');

    await page.goto('/admin/time-slots');
    await page.getByRole('region', { name: 'Check-up' }).waitFor();
    await axe(page, 'time windows');
    await page.getByRole('button', { name: 'Neues Zeitfenster' }).click();
    await page.getByRole('dialog').waitFor();
    await axe(page, 'window dialog');
    await page.keyboard.press('Escape');

    await page.goto('/admin/blocked-dates');
    await page.getByRole('heading', { name: 'Gesperrte Tage', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Tag sperren' }).click();
    await page.getByRole('dialog').waitFor();
    await axe(page, 'blocked date dialog');
    await page.getByRole('dialog').getByLabel('Datum').fill(addDaysToDate(berlinToday(), 200));
    await page.getByRole('dialog').getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('Tag gesperrt').waitFor();
    await axe(page, 'blocked dates with a date and a toast');
    const row = page.getByRole('listitem').filter({ hasText: formatShortDate(addDaysToDate(berlinToday(), 200)) });
    await row.getByRole('button', { name: /entfernen/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sperrung entfernen' }).click();
    await page.getByText('Sperrung entfernt').waitFor();

    await page.goto('/admin/booked-slots');
    await page.getByText('Angezeigte Termine').waitFor();
    await page.getByText(/Keine|Absagen/).first().waitFor();
    await axe(page, 'booked slots');

    await page.goto('/admin/inventory');
    await page.getByRole('table').waitFor();
    await axe(page, 'inventory');
    await page.getByRole('button', { name: 'Neuer Artikel' }).click();
    await page.getByRole('dialog').waitFor();
    await axe(page, 'inventory dialog');
  });
});

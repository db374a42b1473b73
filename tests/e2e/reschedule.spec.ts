/**
 * Reschedule by link, in German, end to end: a booking
 * (through the API, like the wizard's), its emailed link, "Termin
 * verschieben" with the wizard's calendar, the confirmation with reference
 * and .ics, the old time free again in the wizard and the new one gone, the
 * practice's notice in the outbox, and the link working for the new time.
 */
import path from 'node:path';
import { expect, test } from './helpers/test';
import { axe } from './helpers/axe';
import { formatLongDate, formatShortDate } from '../../src/lib/dates';
import { readOutbox } from '../helpers/eml';
import { icsOf } from '../helpers/ics';
import { arrivedMail, bookWithLink, mailTo } from './helpers/wizard';

const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');
const TYPE = 'Reisemedizinische Beratung';

test('moving an appointment through the emailed link (German)', async ({ page, request }) => {
  // A capacity-1 type, on the last date within its advance limit that has enough free times
  // (away from the dates the other specs book).
  const { booking, day, email, linkPath } = await bookWithLink(request, TYPE, 'de');
  const [oldTime, , newTime] = day.times as [string, string, string];

  // The link's page: the appointment, cancel or move.
  await page.goto(linkPath);
  await expect(page.getByRole('heading', { name: 'Möchten Sie diesen Termin absagen?' })).toBeVisible();
  await expect(page.getByText(booking.reference)).toBeVisible();
  await page.getByRole('button', { name: 'Termin verschieben' }).click();

  // The wizard's calendar for the same type, on the appointment's day; its own time is not offered.
  await expect(page.getByRole('heading', { level: 1, name: 'Termin verschieben' })).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Datum und Uhrzeit wählen' })).toBeVisible();
  const times = page.getByRole('group', { name: 'Uhrzeit wählen' });
  await expect(times.getByRole('button', { name: `${newTime} Uhr`, exact: true })).toBeVisible();
  await expect(times.getByRole('button', { name: `${oldTime} Uhr`, exact: true })).toHaveCount(0);
  await times.getByRole('button', { name: `${newTime} Uhr`, exact: true }).click();
  await axe(page, 'reschedule calendar');
  await page.getByRole('button', { name: 'Auf diese Zeit verschieben' }).click();

  // Confirmed: type, long date, new time, reference, and the .ics with the booking's UID.
  await expect(page.getByRole('heading', { level: 1, name: 'Termin verschoben' })).toBeVisible();
  await expect(page.getByTestId('booking-reference')).toHaveText(booking.reference);
  await expect(page.getByText(TYPE, { exact: true })).toBeVisible();
  await expect(page.getByText(formatLongDate(day.date, 'de'))).toBeVisible();
  await expect(page.getByText(`${newTime} Uhr`, { exact: true })).toBeVisible();
  const ics = page.getByRole('link', { name: 'Zum Kalender hinzufügen (.ics)' });
  await expect(ics).toHaveAttribute('download', 'termin.ics');
  const file = decodeURIComponent((await ics.getAttribute('href'))!.replace(/^data:text\/calendar;charset=utf-8,/, ''));
  expect(file).toContain(`UID:${booking.id}@localhost`);
  expect(file).toContain('SEQUENCE:1');
  expect(file).toContain(`DTSTART;TZID=Europe/Berlin:${day.date.replaceAll('-', '')}T${newTime.replace(':', '')}00`);
  await axe(page, 'reschedule confirmation');

  // The wizard offers the old time again and no longer the new one.
  await page.goto('/termin');
  await page.getByRole('button', { name: new RegExp(`^Auswählen: ${TYPE}$`) }).click();
  await expect(times.getByRole('button').first()).toBeVisible();
  const wizardUrl = new URL(page.url());
  wizardUrl.searchParams.set('datum', day.date);
  await page.goto(wizardUrl.toString());
  await expect(page.getByText(formatLongDate(day.date, 'de')).first()).toBeVisible();
  await expect(times.getByRole('button', { name: `${oldTime} Uhr`, exact: true })).toBeVisible();
  await expect(times.getByRole('button', { name: `${newTime} Uhr`, exact: true })).toHaveCount(0);

  // The practice's notice: reference, old and new time.
  const notice = await arrivedMail((m) => m.subject.startsWith('Termin online verschoben:') && m.text.includes(booking.reference), 'the practice notice');
  expect(notice.subject).toBe(`Termin online verschoben: ${TYPE}, jetzt am ${formatShortDate(day.date)} um ${newTime} Uhr`);
  expect(notice.text).toContain(`Buchungsnummer: ${booking.reference}`);
  expect(notice.text).toContain(`Bisheriger Termin: ${formatLongDate(day.date, 'de')}, ${oldTime} Uhr`);
  expect(notice.text).toContain(`Neuer Termin: ${formatLongDate(day.date, 'de')}, ${newTime} Uhr`);
  expect(notice.text).toContain('Verschoben über: den Link in der Bestätigungs-E-Mail');

  // The patient's own confirmation: the new time and an .ics replacing the entry.
  const confirmation = await mailTo(email, (m) => m.subject.startsWith('Terminänderung bestätigt'));
  expect(confirmation.text).toContain(`Neue Uhrzeit: ${newTime} Uhr`);
  expect(confirmation.text).toContain(linkPath);
  expect(icsOf(confirmation)).toMatchObject({ method: 'REQUEST', uid: `${booking.id}@localhost`, sequence: 1 });

  // The emailed link keeps working, now for the new time.
  await page.goto(linkPath);
  await expect(page.getByRole('heading', { name: 'Möchten Sie diesen Termin absagen?' })).toBeVisible();
  await expect(page.getByText(`${newTime} Uhr`, { exact: true })).toBeVisible();
  await expect(page.getByText(`${oldTime} Uhr`, { exact: true })).toHaveCount(0);
  await expect(page.getByText(booking.reference)).toBeVisible();

  // Cancelled through the same link: the patient's confirmation with METHOD:CANCEL.
  await page.getByRole('button', { name: 'Termin absagen' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ja, Termin absagen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Termin abgesagt' })).toBeVisible();
  await expect
    .poll(async () => (await readOutbox(outbox())).find((m) => m.headers.to === email && m.subject.startsWith('Absage bestätigt'))?.subject ?? '')
    .toBe(`Absage bestätigt: ${TYPE} am ${formatShortDate(day.date)} um ${newTime}`);
  const cancelled = (await readOutbox(outbox())).find((m) => m.headers.to === email && m.subject.startsWith('Absage bestätigt'))!;
  expect(icsOf(cancelled)).toMatchObject({ method: 'CANCEL', uid: `${booking.id}@localhost`, sequence: 2, status: 'CANCELLED' });
});
